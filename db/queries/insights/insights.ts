// The insights: the signal markers (error, rage_click, dead_click) of an organization's
// sessions created since a moment, read through markers_signals_idx (migration 0014) in the day
// partitions of the range only, grouped by element, message, page and day.
import { type Kysely, sql } from "kysely";
import type { Database } from "../../schema.ts";

export interface InsightsScope {
  organizationId: string;
  /** null = every project. */
  projectIds: string[] | null;
  since: Date;
}

export interface ElementRow {
  selector: string;
  text: string;
  sessions: number;
  users: number;
  last_ts: number;
}

export interface MessageRow {
  message: string;
  sessions: number;
  users: number;
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

const TOP = 10;

/** The scope's signal markers with their session's tracked user and url summary. */
function signals(scope: InsightsScope) {
  const projects = scope.projectIds
    ? sql`AND s.project_id IN (${sql.join(scope.projectIds)})`
    : sql``;
  return sql`SELECT m.kind, m.ts, m.data, m.session_id, s.tracked_user_id, s.url_ts,
      s.url_pathnames, s.url
    FROM markers m JOIN sessions s ON s.id = m.session_id
    WHERE m.kind IN ('error', 'rage_click', 'dead_click')
      AND m.session_created_at >= ${scope.since}
      AND s.organization_id = ${scope.organizationId} ${projects}`;
}

export async function topElements(
  db: Kysely<Database>,
  scope: InsightsScope,
  kind: "rage_click" | "dead_click",
): Promise<ElementRow[]> {
  const { rows } = await sql<ElementRow>`
    SELECT sig.data ->> 'selector' AS selector,
      COALESCE((array_agg(sig.data ->> 'text' ORDER BY sig.ts DESC))[1], '') AS text,
      count(DISTINCT sig.session_id)::integer AS sessions,
      count(DISTINCT sig.tracked_user_id)::integer AS users, max(sig.ts)::bigint AS last_ts
    FROM (${signals(scope)}) sig
    WHERE sig.kind = ${kind} AND sig.data ->> 'selector' IS NOT NULL
    GROUP BY 1 ORDER BY sessions DESC, last_ts DESC LIMIT ${TOP}
  `.execute(db);
  return rows.map((r) => ({ ...r, last_ts: Number(r.last_ts) }));
}

export async function topErrors(db: Kysely<Database>, scope: InsightsScope): Promise<MessageRow[]> {
  const { rows } = await sql<MessageRow>`
    SELECT COALESCE(sig.data ->> 'message', '') AS message,
      count(DISTINCT sig.session_id)::integer AS sessions,
      count(DISTINCT sig.tracked_user_id)::integer AS users, max(sig.ts)::bigint AS last_ts
    FROM (${signals(scope)}) sig WHERE sig.kind = 'error'
    GROUP BY 1 ORDER BY sessions DESC, last_ts DESC LIMIT ${TOP}
  `.execute(db);
  return rows.map((r) => ({ ...r, last_ts: Number(r.last_ts) }));
}

/** Pages by signals: each signal counts for the page its session was on (the last url before). */
export async function topPages(db: Kysely<Database>, scope: InsightsScope): Promise<PageRow[]> {
  const { rows } = await sql<PageRow>`
    SELECT page.pathname, count(DISTINCT sig.session_id)::integer AS sessions,
      count(*) FILTER (WHERE sig.kind = 'error')::integer AS errors,
      count(*) FILTER (WHERE sig.kind = 'rage_click')::integer AS rage_clicks,
      count(*) FILTER (WHERE sig.kind = 'dead_click')::integer AS dead_clicks
    FROM (${signals(scope)}) sig
    CROSS JOIN LATERAL (
      SELECT COALESCE(
        (SELECT u.p FROM unnest(sig.url_ts, sig.url_pathnames) AS u(ts, p)
          WHERE u.ts <= sig.ts ORDER BY u.ts DESC LIMIT 1),
        sig.url_pathnames[1], '/') AS pathname
    ) page
    GROUP BY 1 ORDER BY count(*) DESC, sessions DESC LIMIT ${TOP}
  `.execute(db);
  return rows;
}

export async function dailyCounts(db: Kysely<Database>, scope: InsightsScope): Promise<DayRow[]> {
  const { rows } = await sql<DayRow>`
    SELECT to_char(to_timestamp(sig.ts / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
      count(*) FILTER (WHERE sig.kind = 'error')::integer AS errors,
      count(*) FILTER (WHERE sig.kind = 'rage_click')::integer AS rage_clicks,
      count(*) FILTER (WHERE sig.kind = 'dead_click')::integer AS dead_clicks
    FROM (${signals(scope)}) sig GROUP BY 1 ORDER BY 1
  `.execute(db);
  return rows;
}
