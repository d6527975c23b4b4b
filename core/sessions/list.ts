// The sessions list and summary (docs/decisions.md "Sessions"): filters, keyset pages and the wire
// item with the server-resolved display name.
import type { AppDeps } from "@/core/deps.ts";
import {
  listSessions,
  type SessionFilter,
  type SessionListRow,
} from "@/db/queries/sessions/list.ts";
import { summarizeSessions } from "@/db/queries/sessions/summary.ts";
import { distinctBrowsers } from "@/db/queries/sessions/search.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { decodeKeyedCursor, encodeCursor } from "@/core/cursor.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type {
  SessionFilterInput,
  SessionListInput,
  SessionListItem,
  SessionListPage,
  SessionRange,
  SessionSummary,
} from "./schema.ts";
import { storedIsoOr } from "@/core/stored_time.ts";
import { readClickedCell } from "@/core/heatmaps/clicked_cell.ts";

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

/** The list's filter of `input` (its range read at `now`); saved searches count with it too. */
export function filterOf(
  organizationId: string,
  input: SessionFilterInput,
  now: Date,
): SessionFilter {
  return {
    organizationId,
    projectIds: input.projectIds ?? null,
    since: since(input.range, now),
    search: input.search?.trim() || null,
    searchUsers: input.searchUsers ?? false,
    narrow: {
      user: input.user ?? null,
      visited: input.visited ?? null,
      minDuration: input.minDuration ?? null,
      maxDuration: input.maxDuration ?? null,
      signals: input.signals ?? null,
      minRequestMs: input.minRequestMs ?? null,
      vitals: input.vital ?? null,
      browser: input.browser ?? null,
      os: input.os ?? null,
      device: input.device ?? null,
      element: input.element ?? null,
      error: input.error ?? null,
      clicked: input.clicked ?? null,
      clickedCell: input.clickedCell ? readClickedCell(input.clickedCell) : null,
      reasons: input.reason ?? null,
    },
    comments: { has: input.hasComments ?? null, text: input.comment ?? null },
    pinned: input.pinned ?? null,
  };
}

export async function sessionList(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  input: SessionListInput,
  now = new Date(),
): Promise<SessionListPage> {
  const organizationId = activeOrganization(viewer);
  const order = `${input.sort}:${input.sortDir}`;
  const after = input.cursor ? decodeKeyedCursor(input.cursor, order) : null;
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
      order,
      key: input.sort === "date"
        ? last.started_us
        : input.sort === "signals"
        ? last.signal_total
        : last.duration,
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
    startedAt: storedIsoOr(row.started_at, row.created_at),
    trackedUserId: row.tracked_user_id,
    userId: row.user_external_id,
    userDisplayName: row.user_display_name,
    userTraits: row.user_traits,
    errorCount: row.error_count,
    rageClickCount: row.rage_click_count,
    deadClickCount: row.dead_click_count,
    networkErrorCount: row.network_error_count,
    browser: row.browser,
    os: row.os,
    device: row.device as SessionListItem["device"],
    recordingReason: row.recording_reason as SessionListItem["recordingReason"],
    triggeredAt: row.triggered_at,
    commentCount: row.comment_count,
    pinned: row.pinned_at !== null,
    ...(row.opening_ms !== undefined && { openAtMs: row.opening_ms }),
  };
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

/** The browsers the active organization's sessions ran in, for the filter bar. */
export async function sessionBrowsers(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
): Promise<string[]> {
  return await distinctBrowsers(deps.db.kysely, activeOrganization(viewer));
}
