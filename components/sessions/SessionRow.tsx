// One row of a sessions list: who, where they entered, project, signals, browser and device,
// duration, events, when, and the link to its replay; ADMIN+ get a pin toggle (a pinned session
// outlives its project's retention) and a delete button that asks before it deletes.
import { replayHref } from "@/page_state/replay.ts";
import { trackedUserHref } from "@/page_state/tracked_user.ts";
import type { SessionListItem } from "@/core/sessions/schema.ts";
import { formatCount, formatDuration, pathnameOf } from "@/utils/format.ts";
import { Time } from "@/components/ui/Time.tsx";
import { ClientLabel, SignalBadges } from "./SignalBadges.tsx";
import { VisitorText } from "@/components/ui/VisitorText.tsx";
import { ReasonBadge } from "./RecordingReason.tsx";

interface Props {
  session: SessionListItem;
  now: Date;
  local: boolean;
  showUser: boolean;
  /** Set for ADMIN+; called once the viewer confirmed. */
  onDelete?: () => void;
  confirming: boolean;
  onConfirming: (on: boolean) => void;
  deleting: boolean;
  /** Set for ADMIN+: pins (true) or unpins the session. */
  onPin?: (pinned: boolean) => void;
  pinning?: boolean;
}

export function SessionRow(props: Props) {
  const { session: s, now, local, showUser } = props;
  // listed by a click (`clicked=`, `clickedCell=`): the replay opens at it
  const replay = replayHref(s.id, s.openAtMs ?? undefined);
  return (
    <tr data-session={s.id}>
      {showUser && (
        <td>
          {s.trackedUserId
            ? (
              <a href={trackedUserHref(s.trackedUserId)}>
                <VisitorText text={s.userDisplayName ?? s.userId ?? ""} />
              </a>
            )
            : <span class="muted">Anonymous</span>}
        </td>
      )}
      <td class="truncate">
        <a class="row-link" href={replay} title={s.url ?? undefined}>{pathnameOf(s.url)}</a>
        <ReasonBadge reason={s.recordingReason} />
      </td>
      <td>{s.projectName}</td>
      <td data-testid="signals">
        <SignalBadges session={s} />
      </td>
      <td class="nowrap">
        <ClientLabel session={s} />
      </td>
      <td class="num">{formatDuration(s.duration)}</td>
      <td class="num">{formatCount(s.eventCount)}</td>
      <td class="nowrap">
        <Time iso={s.startedAt} now={now} local={local} />
      </td>
      <td class="actions">
        <span class="row">
          <a class="button small" href={replay} aria-label={`Replay session ${s.externalId}`}>
            ▶ Replay
          </a>
          <PinControl {...props} />
          {props.onDelete && <DeleteControl {...props} />}
        </span>
      </td>
    </tr>
  );
}

/** A toggle for ADMIN+, a plain mark for the others (and nothing when not pinned). */
export function PinControl({ session: s, onPin, pinning }: Props) {
  if (!onPin) {
    return s.pinned
      ? <span class="badge" title="Kept past its project's retention">Pinned</span>
      : null;
  }
  return (
    <button
      type="button"
      class={`small ${s.pinned ? "" : "ghost"}`}
      aria-pressed={s.pinned}
      title={s.pinned
        ? "Pinned: kept past its project's retention. Click to unpin."
        : "Pin: keep past its project's retention"}
      disabled={pinning}
      onClick={() => onPin(!s.pinned)}
    >
      {s.pinned ? "Pinned" : "Pin"}
    </button>
  );
}

function DeleteControl({ confirming, onConfirming, onDelete, deleting }: Props) {
  if (!confirming) {
    return (
      <button type="button" class="small ghost" onClick={() => onConfirming(true)}>
        Delete
      </button>
    );
  }
  return (
    <span class="row" role="group" aria-label="Confirm deletion">
      <span class="small">Delete with its recording?</span>
      <button type="button" class="small danger" onClick={onDelete} disabled={deleting}>
        {deleting ? "Deleting…" : "Yes, delete"}
      </button>
      <button type="button" class="small ghost" onClick={() => onConfirming(false)}>
        Cancel
      </button>
    </span>
  );
}
