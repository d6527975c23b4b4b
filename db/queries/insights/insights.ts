// The insights from the signal rollups of migration 0017 (kept by triggers with the
// markers): the rows of the range's created days, grouped by element, error group (0021), page, day
// and hour (0032), with an element's or message's users counted in signal_users.
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface InsightsScope {
  organizationId: string;
  /** null = every project. */
  projectIds: string[] | null;
  /** Sessions created at or after it: the start of a UTC day (the rollups are daily). */
  since: Date;
}

export interface ElementRow {
  selector: string;
  text: string;
  sessions: number;
  users: number;
  last_ts: number;
}

export interface ErrorGroupRow {
  /** error_fingerprint (migration 0021): the message folded, plus the top frame. */
  fingerprint: string;
  /** The group's latest message. */
  message: string;
  /** The latest signal's stack (migration 0032), or "" without one. */
  stack: string;
  sessions: number;
  users: number;
  first_ts: number;
  last_ts: number;
}

export interface PageRow {
  pathname: string;
  sessions: number;
  errors: number;
  rage_clicks: number;
  dead_clicks: number;
}

export interface DayRow {
  day: string;
  errors: number;
  rage_clicks: number;
  dead_clicks: number;
}

export interface HourRow {
  /** The UTC hour, `YYYY-MM-DDTHH`. */
  hour: string;
  errors: number;
  rage_clicks: number;
  dead_clicks: number;
}

type RollupKind = "error" | "rage_click" | "dead_click" | "page" | "day" | "hour";

const TOP = 10;

/** The scope's rollup rows of one kind. */
function rollups(scope: InsightsScope, kind: RollupKind): RawBuilder<unknown> {
  return sql`SELECT * FROM signal_rollups r
    WHERE r.organization_id = ${scope.organizationId} AND r.kind = ${kind}
      AND r.created_day >= (${scope.since}::timestamptz AT TIME ZONE 'UTC')::date ${
    projects(scope, sql`r`)
  }`;
}

function projects(scope: InsightsScope, table: RawBuilder<unknown>): RawBuilder<unknown> {
  return scope.projectIds ? sql`AND ${table}.project_id IN (${sql.join(scope.projectIds)})` : sql``;
}

/**
 * The top keys of an element or message kind: sessions, latest text and ts from the rollups, then
 * the users of those keys alone whose newest session with one is in the range.
 */
async function topKeys(
  db: Kysely<Database>,
  scope: InsightsScope,
  kind: "error" | "rage_click" | "dead_click",
) {
  const { rows } = await sql<
    {
      key: string;
      text: string;
      sessions: number;
      users: number;
      first_ts: string | null;
      last_ts: string;
      stack: string;
    }
  >`
    WITH top AS (
      SELECT r.key, COALESCE((array_agg(r.last_text ORDER BY r.last_ts DESC))[1], '') AS text,
        COALESCE((array_agg(r.last_stack ORDER BY r.last_ts DESC))[1], '') AS stack,
        sum(r.sessions)::integer AS sessions, max(r.last_ts) AS last_ts,
        min(r.first_ts) AS first_ts
      FROM (${rollups(scope, kind)}) r
      GROUP BY r.key HAVING sum(r.sessions) > 0
      ORDER BY sessions DESC, last_ts DESC LIMIT ${TOP}
    )
    SELECT top.*, (SELECT count(*) FROM signal_users u
        WHERE u.organization_id = ${scope.organizationId} AND u.kind = ${kind}
          AND u.key = top.key AND u.last_created_at >= ${scope.since}
          ${projects(scope, sql`u`)})::integer AS users
    FROM top ORDER BY sessions DESC, last_ts DESC
  `.execute(db);
  return rows.map((r) => ({
    ...r,
    last_ts: Number(r.last_ts),
    first_ts: Number(r.first_ts ?? r.last_ts),
  }));
}

export async function topElements(
  db: Kysely<Database>,
  scope: InsightsScope,
  kind: "rage_click" | "dead_click",
): Promise<ElementRow[]> {
  return (await topKeys(db, scope, kind)).map(({ key, first_ts: _, stack: __, ...r }) => ({
    selector: key,
    ...r,
  }));
}

/** Error groups by fingerprint, each with its latest message. */
export async function topErrors(
  db: Kysely<Database>,
  scope: InsightsScope,
): Promise<ErrorGroupRow[]> {
  return (await topKeys(db, scope, "error")).map(({ key, text, ...r }) => ({
    fingerprint: key,
    message: text,
    ...r,
  }));
}

/** Pages by signals: each signal counts for the page its session was on (the last url before). */
export async function topPages(db: Kysely<Database>, scope: InsightsScope): Promise<PageRow[]> {
  const { rows } = await sql<PageRow>`
    SELECT r.key AS pathname, sum(r.sessions)::integer AS sessions,
      sum(r.errors)::integer AS errors, sum(r.rage_clicks)::integer AS rage_clicks,
      sum(r.dead_clicks)::integer AS dead_clicks
    FROM (${rollups(scope, "page")}) r
    GROUP BY r.key HAVING sum(r.errors + r.rage_clicks + r.dead_clicks) > 0
    ORDER BY sum(r.errors + r.rage_clicks + r.dead_clicks) DESC, sessions DESC LIMIT ${TOP}
  `.execute(db);
  return rows;
}

/** Signals per UTC day of their ts. */
export async function dailyCounts(db: Kysely<Database>, scope: InsightsScope): Promise<DayRow[]> {
  const { rows } = await sql<DayRow>`
    SELECT r.key AS day, sum(r.errors)::integer AS errors,
      sum(r.rage_clicks)::integer AS rage_clicks, sum(r.dead_clicks)::integer AS dead_clicks
    FROM (${rollups(scope, "day")}) r
    GROUP BY r.key HAVING sum(r.errors + r.rage_clicks + r.dead_clicks) > 0 ORDER BY 1
  `.execute(db);
  return rows;
}

/** Signals per UTC hour of their ts (migration 0032), for a range of a day. */
export async function hourlyCounts(db: Kysely<Database>, scope: InsightsScope): Promise<HourRow[]> {
  const { rows } = await sql<HourRow>`
    SELECT r.key AS hour, sum(r.errors)::integer AS errors,
      sum(r.rage_clicks)::integer AS rage_clicks, sum(r.dead_clicks)::integer AS dead_clicks
    FROM (${rollups(scope, "hour")}) r
    GROUP BY r.key HAVING sum(r.errors + r.rage_clicks + r.dead_clicks) > 0 ORDER BY 1
  `.execute(db);
  return rows;
}
