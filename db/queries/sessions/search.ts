// The sessions list's search conditions beyond the external id, each backed by an index: the
// tracked user (trigram over its search text, migration 0018: external id, custom name, trait
// values), a page visited (trigram over the url pathnames, then an exact match per pathname),
// duration (0001's duration index), signals (a partial index of the sessions that have any),
// browser, OS and device (0014), network errors and web vitals (0028).
import { type Expression, type Kysely, type RawBuilder, sql, type SqlBool } from "kysely";
import type { Database } from "@/db/schema.ts";
import { clickedConditions, type ClickedSearch } from "@/db/queries/heatmaps/clicked.ts";

export type SignalName = "error" | "rage_click" | "dead_click" | "network_error";

export interface SessionSearch {
  /** Case-insensitive substring of the tracked user's external id, name or a trait value. */
  user: string | null;
  /** A url pathname, `*` matching any characters. */
  visited: string | null;
  minDuration: number | null;
  maxDuration: number | null;
  /** Each listed kind at least once. */
  signals: SignalName[] | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  /** A rage or dead click on this selector (of the click kinds in `signals`, if any). */
  element?: string | null;
  /** An error marker of this group (its error_fingerprint, migration 0021). */
  error?: string | null;
  /** A click on this element, or in this cell of a page (db/queries/heatmaps/clicked.ts). */
  clicked?: ClickedSearch["clicked"];
  clickedCell?: ClickedSearch["clickedCell"];
  /** Recorded for one of these reasons (migration 0025). */
  reasons?: string[] | null;
  /** The slowest recorded request took at least this many ms (migration 0028). */
  minRequestMs?: number | null;
  /** Any of these web vitals' `name:rating` pairs (migration 0028). */
  vitals?: string[] | null;
}

export const NO_SEARCH: SessionSearch = {
  user: null,
  visited: null,
  minDuration: null,
  maxDuration: null,
  signals: null,
  browser: null,
  os: null,
  device: null,
};

const COUNT_COLUMN: Record<SignalName, string> = {
  error: "error_count",
  rage_click: "rage_click_count",
  dead_click: "dead_click_count",
  network_error: "network_error_count",
};

/** The sum the `signals` sort orders by (the expression of sessions_org_signals_idx). */
export const SIGNAL_TOTAL = sql<number>`(sessions.error_count + sessions.rage_click_count
  + sessions.dead_click_count)`;

/** LIKE pattern for a literal substring. */
export function containing(text: string): string {
  return `%${escapeLike(text)}%`;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The tracked users of the organization whose search text holds `text` (tracked_users ids). */
export function matchingUsers(organizationId: string, text: string): RawBuilder<unknown> {
  return sql`(SELECT tu.id FROM tracked_users tu WHERE tu.organization_id = ${organizationId}
    AND tu.search_text ILIKE ${containing(text)})`;
}

/** The conditions of `s` on `sessions`, joined by AND; empty when it sets none. */
export function searchConditions(
  organizationId: string,
  s: SessionSearch,
  since: Date | null = null,
): Expression<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  // The insights' links: sessions with a marker of that element or message, read through
  // markers_signals_idx in the range's day partitions.
  const withMarker = (kinds: string[], key: RawBuilder<unknown>, value: string) =>
    sql<SqlBool>`sessions.id IN (SELECT m.session_id FROM markers m
      WHERE m.kind IN (${sql.join(kinds)}) AND ${key} = ${value}
      ${since ? sql`AND m.session_created_at >= ${since}` : sql``})`;
  if (s.element) {
    const listed = (s.signals ?? []).filter((k) => k !== "error");
    out.push(
      withMarker(
        listed.length ? listed : ["rage_click", "dead_click"],
        sql`m.data ->> 'selector'`,
        s.element,
      ),
    );
  }
  // an error group: the fingerprint of migration 0021
  if (s.error) out.push(withMarker(["error"], sql`error_fingerprint(m.data)`, s.error));
  // the heatmaps' links: sessions whose share of the maps has a click on the element or cell
  out.push(...clickedConditions(organizationId, s) as RawBuilder<SqlBool>[]);
  // with signals, probed in sessions_user_signaled_idx (migration 0018) per matching user
  if (s.user) out.push(sql`sessions.tracked_user_id IN ${matchingUsers(organizationId, s.user)}`);
  if (s.visited) {
    const pattern = s.visited.split("*").map(escapeLike).join("%");
    // The trigram index narrows to sessions whose joined pathnames hold the pattern somewhere;
    // the exact test is per pathname, so `/a*` never matches a session that only saw `/b/a`.
    out.push(sql`session_pathnames_text(sessions.url_pathnames) LIKE ${`%${pattern}%`}`);
    out.push(sql`EXISTS (SELECT 1 FROM unnest(sessions.url_pathnames) AS p(pathname)
      WHERE p.pathname LIKE ${pattern})`);
  }
  if (s.minDuration !== null) out.push(sql`sessions.duration >= ${s.minDuration}`);
  if (s.maxDuration !== null) out.push(sql`sessions.duration <= ${s.maxDuration}`);
  if (s.signals?.length) {
    // Spelled as the partial index's predicate, which the planner cannot infer from the others
    // (sessions_org_network_error_idx's for network errors, migration 0028).
    if (s.signals.some((k) => k !== "network_error")) out.push(sql`${SIGNAL_TOTAL} > 0`);
    for (const kind of s.signals) out.push(sql`${sql.ref(`sessions.${COUNT_COLUMN[kind]}`)} > 0`);
  }
  if (s.minRequestMs != null) out.push(sql`sessions.max_request_ms >= ${s.minRequestMs}`);
  if (s.vitals?.length) out.push(sql`sessions.web_vitals && ${s.vitals}::text[]`);
  if (s.browser) out.push(sql`sessions.browser = ${s.browser}`);
  if (s.os) out.push(sql`sessions.os = ${s.os}`);
  if (s.device) out.push(sql`sessions.device = ${s.device}`);
  if (s.reasons?.length) {
    out.push(sql`sessions.recording_reason IN (${sql.join(s.reasons)})`);
    // Spelled as the partial index's predicate (sessions_org_triggered_idx) when it holds.
    if (!s.reasons.includes("sampled")) out.push(sql`sessions.recording_reason <> 'sampled'`);
  }
  return out as Expression<SqlBool>[];
}

/**
 * The distinct browsers of an organization's sessions, A to Z: a skip scan of
 * sessions_org_browser_idx (one index probe per browser, not a read of every session).
 */
export async function distinctBrowsers(
  db: Kysely<Database>,
  organizationId: string,
  limit = 50,
): Promise<string[]> {
  const { rows } = await sql<{ browser: string }>`
    WITH RECURSIVE b(browser) AS (
      (SELECT browser FROM sessions WHERE organization_id = ${organizationId}
        AND browser IS NOT NULL ORDER BY browser LIMIT 1)
      UNION ALL
      SELECT (SELECT s.browser FROM sessions s WHERE s.organization_id = ${organizationId}
        AND s.browser > b.browser ORDER BY s.browser LIMIT 1)
      FROM b WHERE b.browser IS NOT NULL
    )
    SELECT browser FROM b WHERE browser IS NOT NULL LIMIT ${limit}
  `.execute(db);
  return rows.map((r) => r.browser);
}
