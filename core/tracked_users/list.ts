// The tracked-users list and KPI aggregate (docs/decisions.md "Tracked users"): filters, statuses
// and sorts all in SQL over the whole set, keyset pages, and the wire item.
import type { AppDeps } from "@/core/deps.ts";
import { listTrackedUsers, type TrackedUserRow } from "@/db/queries/tracked_users/list.ts";
import { summarizeTrackedUsers } from "@/db/queries/tracked_users/summary.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { decodeCursor, encodeCursor } from "@/core/cursor.ts";
import type {
  TrackedUserItem,
  TrackedUserListInput,
  TrackedUserPage,
  TrackedUserSummary,
} from "./schema.ts";
import { statusAt, statusBounds } from "./status.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { storedIso } from "@/core/stored_time.ts";

type Deps = Pick<AppDeps, "db">;

export function toItem(row: TrackedUserRow, now: Date): TrackedUserItem {
  return {
    id: row.id,
    externalId: row.external_id,
    displayName: row.display_name,
    projectId: row.project_id,
    projectName: row.project_name,
    traits: row.traits,
    sessionCount: row.session_count,
    lastEventAt: storedIso(row.last_event_at),
    status: statusAt(row.last_event_at, now),
    activeTime7d: row.active_time,
    createdAt: row.created_at.toISOString(),
  };
}

export async function trackedUserList(
  deps: Deps,
  viewer: Viewer,
  input: TrackedUserListInput,
  now = new Date(),
): Promise<TrackedUserPage> {
  const organizationId = activeOrganization(viewer);
  const order = `${input.sort}:${input.sortDir}`;
  const after = input.cursor ? decodeCursor(input.cursor, order) : null;
  // The status windows are fixed at `now`; a cursor from an earlier page keeps its place because
  // it carries the row's key, not its status.
  const rows = await listTrackedUsers(deps.db.kysely, {
    organizationId,
    projectIds: input.projectIds ?? null,
    search: input.search?.trim() || null,
    statuses: input.statuses ?? null,
    bounds: statusBounds(now),
  }, { sort: input.sort, dir: input.sortDir, after, limit: input.limit + 1 });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > input.limit && last
    ? encodeCursor({ order, key: last.sort_key, id: last.id })
    : null;
  return { data: page.map((row) => toItem(row, now)), nextCursor };
}

export async function trackedUserSummary(
  deps: Deps,
  viewer: Viewer,
  now = new Date(),
): Promise<TrackedUserSummary> {
  const row = await summarizeTrackedUsers(
    deps.db.kysely,
    activeOrganization(viewer),
    statusBounds(now),
  );
  return {
    total: row.total,
    onlineNow: row.online_now,
    active24h: row.active_24h,
    newThisWeek: row.new_this_week,
  };
}
