// An alert rule's evaluation (docs/decisions.md "Alerts"): the minute's claim, the distinct
// sessions per group with the rule's signal in the window's minutes (the per-minute rollup of
// migration 0039, never the markers), the 3 latest of them as links (the markers of a few
// sessions), the groups in cooldown, and the firing written with its outbox rows.
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { AlertDeliveryTable, Database } from "@/db/schema.ts";
import type { Insertable } from "kysely";
import type { AlertRuleRow } from "./rules.ts";
import { insertDeliveries } from "./outbox.ts";

const MINUTE_MS = 60_000;

/** Claims the rules not yet evaluated in `minute` (one instance wins each), at most `limit`. */
export async function claimRules(
  db: Kysely<Database>,
  minute: number,
  limit: number,
): Promise<AlertRuleRow[]> {
  const { rows } = await sql<AlertRuleRow>`
    UPDATE alert_rules SET last_evaluated_minute = ${minute}
    WHERE id IN (SELECT id FROM alert_rules WHERE last_evaluated_minute < ${minute}
                 ORDER BY last_evaluated_minute, id LIMIT ${limit})
      AND last_evaluated_minute < ${minute}
    RETURNING *`.execute(db);
  return rows;
}

export interface GroupCount {
  group_key: string;
  count: number;
  /** Up to 3 sessions, latest signal first, with the signal's ms from the session's start. */
  sessions: { id: string; offset: number }[];
}

/** The dimension of alert_signal_minutes (migration 0039) a rule's groups are read from. */
const DIMENSION: Record<string, string> = {
  page: "page",
  selector: "selector",
  error_group: "error_group",
  endpoint: "endpoint",
};

/** A marker's group, computed as migration 0039's trigger computes it (for the session links). */
const GROUP_EXPRESSION: Record<string, RawBuilder<string>> = {
  page: sql`signal_page(s.url_ts, s.url_pathnames, m.ts)`,
  selector: sql`left(m.data ->> 'selector', 512)`,
  error_group: sql`left(error_fingerprint(m.data), 512)`,
  endpoint: sql`left(m.data ->> 'endpoint', 512)`,
};

/** Sessions per group whose latest signal minute may hold one of its 3 latest signals. */
const LINK_CANDIDATES = 20;

/**
 * The groups with at least `threshold` distinct sessions with the signal in the minutes
 * [fromMinute, toMinute) (of the rule's one group, when it watches one): the rollup's rows of the
 * window only (its primary key's range), each (group, session) once, in one sort; with, per group,
 * the sessions whose latest signal minute ties with or passes the third's (at most
 * LINK_CANDIDATES) for the links.
 */
export async function groupsOverThreshold(
  db: Kysely<Database>,
  rule: Pick<AlertRuleRow, "project_id" | "signal" | "group_by" | "threshold"> & {
    group_key?: string | null;
  },
  fromMinute: number,
  toMinute: number,
): Promise<GroupCount[]> {
  const group = rule.group_by ? sql`group_key` : sql<string>`''`;
  const dimension = rule.group_by ? DIMENSION[rule.group_by] : "page";
  const only = rule.group_by && rule.group_key ? sql`AND group_key = ${rule.group_key}` : sql``;
  // Parallel workers only add their start-up to a read of one index range; a day's window of a
  // busy project sorts ~100,000 (group, session) pairs, in memory.
  await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(db);
  await sql`SET LOCAL work_mem = '32MB'`.execute(db);
  const { rows } = await sql<{ group_key: string; count: number; ids: string[] }>`
    WITH w AS (
      SELECT ${group} AS g, session_id, max(minute) AS last_minute
      FROM alert_signal_minutes
      WHERE project_id = ${rule.project_id} AND kind = ${rule.signal}
        AND dimension = ${dimension} AND minute >= ${fromMinute} AND minute < ${toMinute} ${only}
      GROUP BY 1, 2
    ),
    ranked AS (
      SELECT g, session_id, count(*) OVER (PARTITION BY g) AS count,
        rank() OVER (PARTITION BY g ORDER BY last_minute DESC) AS place,
        row_number() OVER (PARTITION BY g ORDER BY last_minute DESC, session_id) AS n
      FROM w
    )
    SELECT g AS group_key, max(count)::integer AS count,
      array_agg(session_id ORDER BY n)
        FILTER (WHERE place <= 3 AND n <= ${LINK_CANDIDATES}) AS ids
    FROM ranked GROUP BY g HAVING max(count) >= ${rule.threshold}
    ORDER BY 2 DESC, 1 LIMIT 100`.execute(db);
  if (!rows.length) return [];
  const links = await latestSignals(db, rule, rows, fromMinute * MINUTE_MS, toMinute * MINUTE_MS);
  return rows.map((r) => ({
    group_key: r.group_key,
    count: r.count,
    sessions: links.get(r.group_key) ?? [],
  }));
}

/**
 * Per group, its 3 sessions with the latest signal in [startMs, endMs), latest first, with the
 * signal's ms from the session's start: the candidates' markers only (each session's partition).
 */
async function latestSignals(
  db: Kysely<Database>,
  rule: Pick<AlertRuleRow, "signal" | "group_by">,
  groups: { group_key: string; ids: string[] }[],
  startMs: number,
  endMs: number,
): Promise<Map<string, { id: string; offset: number }[]>> {
  const group = rule.group_by ? GROUP_EXPRESSION[rule.group_by] : sql<string>`''`;
  const pairs = groups.flatMap((g) => g.ids.map((id) => ({ g: g.group_key, id })));
  const { rows } = await sql<{ g: string; session_id: string; offset_ms: string }>`
    WITH wanted AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(pairs)}::text::jsonb) AS w(g text, id text)
    ),
    sig AS (
      SELECT DISTINCT ON (w.g, s.id) w.g, s.id AS session_id, m.ts,
        m.ts - (extract(epoch FROM s.started_at) * 1000)::bigint AS offset_ms
      FROM wanted w JOIN sessions s ON s.id = w.id
      JOIN markers m ON m.session_id = s.id AND m.session_created_at = s.created_at
      WHERE m.kind = ${rule.signal} AND m.ts >= ${startMs} AND m.ts < ${endMs}
        AND ${group} = w.g
      ORDER BY w.g, s.id, m.ts DESC
    )
    SELECT g, session_id, offset_ms::text FROM (
      SELECT *, row_number() OVER (PARTITION BY g ORDER BY ts DESC, session_id) AS n FROM sig
    ) ranked WHERE n <= 3 ORDER BY g, n`.execute(db);
  const links = new Map<string, { id: string; offset: number }[]>();
  for (const r of rows) {
    const list = links.get(r.g) ?? [];
    list.push({ id: r.session_id, offset: Math.max(0, Number(r.offset_ms)) });
    links.set(r.g, list);
  }
  return links;
}

/** Locks the rule for this transaction (its firings are decided by one evaluator at a time). */
export async function lockRule(db: Kysely<Database>, ruleId: string): Promise<boolean> {
  const { rows } = await sql`SELECT id FROM alert_rules WHERE id = ${ruleId} FOR UPDATE`
    .execute(db);
  return rows.length > 0;
}

/** The rule's groups that fired at or after `since` (in cooldown). */
export async function groupsInCooldown(
  db: Kysely<Database>,
  ruleId: string,
  since: Date,
): Promise<Set<string>> {
  const rows = await db.selectFrom("alert_firings").select("group_key").distinct()
    .where("rule_id", "=", ruleId).where("fired_at", ">=", since).execute();
  return new Set(rows.map((r) => r.group_key));
}

export async function insertFiring(
  db: Kysely<Database>,
  firing: { id: string; rule_id: string; group_key: string; count: number; fired_at: Date },
  deliveries: Insertable<AlertDeliveryTable>[],
): Promise<void> {
  await db.insertInto("alert_firings").values(firing).execute();
  await insertDeliveries(db, deliveries);
}
