// The tracked user's heading: display name, live status, and the facts that identify them.
import { trackedUsersHref } from "@/page_state/tracked_users.ts";
import type { TrackedUserDetail } from "@/core/tracked_users/schema.ts";
import { formatCount, formatDuration } from "@/utils/format.ts";
import OnlineStatus from "@/islands/OnlineStatus.tsx";
import { Time } from "@/components/ui/Time.tsx";
import { VisitorText } from "@/components/ui/VisitorText.tsx";

interface Props {
  user: TrackedUserDetail;
  renderedAt: string;
  /** How often the header asks whether the user is online (while the tab is visible). */
  refreshMs: number;
}

export function TrackedUserHeader({ user, renderedAt, refreshMs }: Props) {
  const now = new Date(renderedAt);
  return (
    <header class="user-head card">
      <div class="user-title">
        <p class="breadcrumb">
          <a href={trackedUsersHref()}>Users</a> <span aria-hidden="true">/</span>
        </p>
        <div class="row">
          <h1>
            <VisitorText text={user.displayName} class="wide" testId="user-name" />
          </h1>
          <OnlineStatus
            userId={user.id}
            online={user.status === "ONLINE"}
            lastEventAt={user.lastEventAt}
            renderedAt={renderedAt}
            intervalMs={refreshMs}
          />
        </div>
      </div>
      <dl class="facts">
        <div>
          <dt>External id</dt>
          <dd>
            <code>
              <VisitorText text={user.externalId} class="wide" testId="user-external-id" />
            </code>
          </dd>
        </div>
        <div>
          <dt>Project</dt>
          <dd>{user.projectName}</dd>
        </div>
        <div>
          <dt>First seen</dt>
          <dd>
            <Time iso={user.createdAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>Last seen</dt>
          <dd>{user.lastEventAt ? <Time iso={user.lastEventAt} now={now} /> : "—"}</dd>
        </div>
        <div>
          <dt>Sessions</dt>
          <dd>{formatCount(user.sessionCount)}</dd>
        </div>
        <div>
          <dt>Active, 7 days</dt>
          <dd>{formatDuration(user.activeTime7d)}</dd>
        </div>
      </dl>
    </header>
  );
}
