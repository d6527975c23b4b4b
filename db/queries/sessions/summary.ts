// The sessions list's KPI strip. Without a search it is read from session_rollups (migration 0007):
// whole UTC hours of created_at from the rollup, the part of the first hour after `since` from the
// sessions themselves (an index range of at most an hour), so it is exact for every range and
// project filter and costs the same at any data size. A search (a substring of externalId) or any
// search condition beyond the external id cannot be rolled up: it counts the matching sessions.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { filtered, type SessionFilter } from "./list.ts";

export interface SessionSummaryRow {
  total_sessions: number;
  total_duration: number;
  active_today: number;
}

const HOUR_MS = 3_600_000;

/** Counts over the whole filtered set; activeToday = ended at or after `todayStart`, or open. */
export async function summarizeSessions(
  db: Kysely<Database>,
  filter: SessionFilter,
  todayStart: Date,
): Promise<SessionSummaryRow> {
  if (filter.projectIds?.length === 0) {
    return { total_sessions: 0, total_duration: 0, active_today: 0 };
  }
  if (filter.search || (filter.narrow && Object.values(filter.narrow).some((v) => v !== null))) {
    return await summarizeSessionsDirect(db, filter, todayStart);
  }
  // Hours from `hourStart` on are whole in the rollup; [since, hourStart) is read directly.
  const hourStart = filter.since
    ? new Date(Math.ceil(filter.since.getTime() / HOUR_MS) * HOUR_MS)
    : null;
  const projects = filter.projectIds
    ? sql`AND project_id IN (${sql.join(filter.projectIds)})`
    : sql``;
  const since = hourStart ? sql`AND created_hour >= ${hourStart}` : sql``;
  const { rows } = await sql<SessionSummaryRow>`
    SELECT COALESCE(sum(sessions), 0)::bigint AS total_sessions,
      COALESCE(sum(duration), 0)::bigint AS total_duration,
      COALESCE(sum(sessions) FILTER (WHERE ended_day >= ${todayStart}), 0)::bigint AS active_today
    FROM session_rollups
    WHERE organization_id = ${filter.organizationId} ${projects} ${since}
  `.execute(db);
  const whole = rows[0];
  if (!hourStart || hourStart.getTime() === filter.since?.getTime()) return whole;
  const edge = await summarizeSessionsDirect(db, filter, todayStart, hourStart);
  return {
    total_sessions: whole.total_sessions + edge.total_sessions,
    total_duration: whole.total_duration + edge.total_duration,
    active_today: whole.active_today + edge.active_today,
  };
}

/** The same counts aggregated from the sessions (created before `until` when given). */
export async function summarizeSessionsDirect(
  db: Kysely<Database>,
  filter: SessionFilter,
  todayStart: Date,
  until: Date | null = null,
): Promise<SessionSummaryRow> {
  if (filter.projectIds?.length === 0) {
    return { total_sessions: 0, total_duration: 0, active_today: 0 };
  }
  let q = filtered(db, filter);
  if (until) q = q.where("sessions.created_at", "<", until);
  return await q.select([
    sql<number>`count(*)::bigint`.as("total_sessions"),
    sql<number>`COALESCE(sum(sessions.duration), 0)::bigint`.as("total_duration"),
    sql<number>`count(*) FILTER (WHERE sessions.ended_at IS NULL
      OR sessions.ended_at >= ${todayStart})::bigint`.as("active_today"),
  ]).executeTakeFirstOrThrow();
}
