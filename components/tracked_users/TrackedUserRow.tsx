// One row of the users list: live status dot, name (to the user's page), a short traits line with
// all of them on hover, project, sessions, last seen and active time over 7 days.
import { trackedUserHref } from "@/page_state/tracked_user.ts";
import type { TrackedUserItem } from "@/core/tracked_users/schema.ts";
import type { TrackedUserStatus } from "@/core/tracked_users/status.ts";
import { formatCount, formatDuration, traitsSummary, withoutBidiControls } from "@/utils/format.ts";
import { Time } from "@/components/ui/Time.tsx";
import { StatusName } from "./StatusName.tsx";
import { VisitorText } from "@/components/ui/VisitorText.tsx";

interface Props {
  user: TrackedUserItem;
  /** The heartbeat's view of status and last event, when it has one. */
  status: TrackedUserStatus;
  lastEventAt: string | null;
  now: Date;
  local: boolean;
}

export function TrackedUserRow({ user, status, lastEventAt, now, local }: Props) {
  const online = status === "ONLINE";
  const href = trackedUserHref(user.id);
  const traits = traitsSummary(user.traits, 2);
  return (
    <tr data-user={user.id} data-status={status}>
      <td class="status-cell">
        <span class="status-label">
          <span
            class="dot"
            data-status={status}
            data-online={String(online)}
            data-testid="online-dot"
          />
          <StatusName status={status} />
        </span>
      </td>
      <td class="truncate user-cell">
        <a class="row-link" href={href}>
          <VisitorText text={user.displayName} />
        </a>
        {user.displayName !== user.externalId && (
          <span class="user-id">
            <VisitorText text={user.externalId} />
          </span>
        )}
      </td>
      <td class="truncate traits-cell" title={allTraits(user.traits) || undefined}>
        {traits || <span class="muted">—</span>}
      </td>
      <td class="truncate">{user.projectName}</td>
      <td class="num">{formatCount(user.sessionCount)}</td>
      <td>
        {lastEventAt
          ? <Time iso={lastEventAt} now={now} local={local} />
          : <span class="muted">Never</span>}
      </td>
      <td class="num">{formatDuration(user.activeTime7d)}</td>
    </tr>
  );
}

/** Every trait on its own line, for the hover text. */
function allTraits(traits: Record<string, unknown>): string {
  return withoutBidiControls(
    Object.entries(traits)
      .map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
      .join("\n"),
  );
}
