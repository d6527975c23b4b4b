// The sessions list and summary (DECISIONS "Sessions"): filters, keyset pages and the wire item
// with the server-resolved display name.
import type { AppDeps } from "../app_deps.ts";
import {
  listSessions,
  type SessionFilter,
  type SessionListRow,
  summarizeSessions,
} from "../db/queries/session_list.ts";
import { activeOrganization } from "./org_access.ts";
import { decodeCursor, encodeCursor, type SessionSort, type SortDir } from "./session_cursor.ts";
import type { Viewer } from "./viewer.ts";

export type SessionRange = "today" | "7d" | "30d" | "all" | "retention";

export interface SessionFilterInput {
  search?: string;
  projectIds?: string[];
  range: SessionRange;
}

export interface SessionListInput extends SessionFilterInput {
  sort: SessionSort;
  sortDir: SortDir;
  cursor?: string;
  limit: number;
}

export interface SessionListItem {
  id: string;
  externalId: string;
  projectId: string;
  projectName: string;
  url: string | null;
  duration: number;
  eventCount: number;
  createdAt: string;
  trackedUserId: string | null;
  userId: string | null;
  userDisplayName: string | null;
  userTraits: Record<string, unknown> | null;
}

const DAY_MS = 86_400_000;

/** 00:00 UTC of `now`'s day. */
export function startOfUtcDay(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
}

function since(range: SessionRange, now: Date): Date | null {
  if (range === "today") return startOfUtcDay(now);
  if (range === "7d") return new Date(now.getTime() - 7 * DAY_MS);
  if (range === "30d") return new Date(now.getTime() - 30 * DAY_MS);
  return null; // "all" and its alias "retention": retention itself bounds the set
}

function filterOf(organizationId: string, input: SessionFilterInput, now: Date): SessionFilter {
  return {
    organizationId,
    projectIds: input.projectIds ?? null,
    since: since(input.range, now),
    search: input.search?.trim() || null,
  };
}

export async function sessionList(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  input: SessionListInput,
  now = new Date(),
): Promise<{ data: SessionListItem[]; nextCursor: string | null }> {
  const organizationId = activeOrganization(viewer);
  const after = input.cursor ? decodeCursor(input.cursor, input.sort, input.sortDir) : null;
  // One extra row says whether another page exists.
  const rows = await listSessions(deps.db.kysely, filterOf(organizationId, input, now), {
    sort: input.sort,
    dir: input.sortDir,
    after,
    limit: input.limit + 1,
  });
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > input.limit && last
    ? encodeCursor({
      sort: input.sort,
      dir: input.sortDir,
      key: input.sort === "date" ? last.created_us : last.duration,
      id: last.id,
    })
    : null;
  return { data: page.map(toSessionListItem), nextCursor };
}

export function toSessionListItem(row: SessionListRow): SessionListItem {
  return {
    id: row.id,
    externalId: row.external_id,
    projectId: row.project_id,
    projectName: row.project_name,
    url: row.url,
    duration: row.duration,
    eventCount: row.event_count,
    createdAt: row.created_at.toISOString(),
    trackedUserId: row.tracked_user_id,
    userId: row.user_external_id,
    userDisplayName: row.user_display_name,
    userTraits: row.user_traits,
  };
}

export interface SessionSummary {
  totalSessions: number;
  totalDuration: number;
  avgDuration: number;
  /** Sessions still open or that ended since 00:00 UTC today. */
  activeToday: number;
}

export async function sessionSummary(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  input: SessionFilterInput,
  now = new Date(),
): Promise<SessionSummary> {
  const organizationId = activeOrganization(viewer);
  const row = await summarizeSessions(
    deps.db.kysely,
    filterOf(organizationId, input, now),
    startOfUtcDay(now),
  );
  return {
    totalSessions: row.total_sessions,
    totalDuration: row.total_duration,
    avgDuration: row.total_sessions ? Math.round(row.total_duration / row.total_sessions) : 0,
    activeToday: row.active_today,
  };
}
