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

/** The dimension of migration 0039's rollups a rule's groups are read from ("none" without). */
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
 * [fromMinute, toMinute) (of the rule's one group, when it watches one), from migration 0039's
 * last minutes: a (group, session) whose last signal minute is in the window counts there (the
 * counts' rows of the window: at most one per group and minute), one whose last is at or after
 * its end (the current minute, a clock ahead) counts when it has a row in the window (few, each
 * probed by its session). Each group's link candidates: its sessions whose last minute ties with
 * or passes the third's (at most LINK_CANDIDATES), and those late ones.
 */
export async function groupsOverThreshold(
  db: Kysely<Database>,
  rule: Pick<AlertRuleRow, "project_id" | "signal" | "group_by" | "threshold"> & {
    group_key?: string | null;
  },
  fromMinute: number,
  toMinute: number,
): Promise<GroupCount[]> {
  const dimension = rule.group_by ? DIMENSION[rule.group_by] : "none";
  // the per-minute rows of a rule without a group are its pages'
  const rowDimension = rule.group_by ? dimension : "page";
  const sameGroup = rule.group_by ? sql`AND m.group_key = l.group_key` : sql``;
  const only = (alias: string) =>
    rule.group_by && rule.group_key
      ? sql`AND ${sql.ref(`${alias}.group_key`)} = ${rule.group_key}`
      : sql``;
  // The window's whole UTC hours from the hourly counts, its ends (or all of a shorter one) by
  // the minute.
  const fromHour = Math.ceil(fromMinute / 60);
  const toHour = Math.max(fromHour, Math.floor(toMinute / 60));
  const head = fromHour < toHour ? fromHour * 60 : toMinute;
  const tail = fromHour < toHour ? toHour * 60 : toMinute;
  // Parallel workers only add their start-up to reads of one index range. Plans for these values:
  // a prepared statement's generic plan turned the late sessions' probe into a semi-join over the
  // window's per-minute rows (1.8 s for a busy project's day, measured).
  await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(db);
  await sql`SET LOCAL plan_cache_mode = force_custom_plan`.execute(db);
  const { rows } = await sql<{ group_key: string; count: number; late: string[] }>`
    WITH late AS (
      SELECT l.group_key, l.session_id FROM alert_signal_last l
      WHERE l.project_id = ${rule.project_id} AND l.kind = ${rule.signal}
        AND l.dimension = ${dimension} AND l.last_minute >= ${toMinute} ${only("l")}
        AND EXISTS (SELECT 1 FROM alert_signal_minutes m
          WHERE m.session_id = l.session_id AND m.project_id = l.project_id
            AND m.kind = l.kind AND m.dimension = ${rowDimension} ${sameGroup}
            AND m.minute >= ${fromMinute} AND m.minute < ${toMinute})
    ),
    counted AS (
      SELECT c.group_key, sum(c.sessions)::integer AS n FROM alert_signal_last_counts c
      WHERE c.project_id = ${rule.project_id} AND c.kind = ${rule.signal}
        AND c.dimension = ${dimension} ${only("c")}
        AND (c.minute >= ${fromMinute} AND c.minute < ${head}
          OR c.minute >= ${tail} AND c.minute < ${toMinute})
      GROUP BY 1
      UNION ALL
      SELECT h.group_key, sum(h.sessions)::integer FROM alert_signal_last_hours h
      WHERE h.project_id = ${rule.project_id} AND h.kind = ${rule.signal}
        AND h.dimension = ${dimension} AND h.hour >= ${fromHour} AND h.hour < ${toHour}
        ${only("h")}
      GROUP BY 1
      UNION ALL
      SELECT group_key, count(*)::integer FROM late GROUP BY 1
    )
    SELECT g.group_key, sum(g.n)::integer AS count,
      array(SELECT late.session_id FROM late WHERE late.group_key = g.group_key
        ORDER BY late.session_id LIMIT ${LINK_CANDIDATES}) AS late
    FROM counted g GROUP BY g.group_key HAVING sum(g.n) >= ${rule.threshold}
    ORDER BY 2 DESC, 1 LIMIT 100`.execute(db);
  if (!rows.length) return [];
  const { rows: recent } = await sql<{ group_key: string; session_id: string }>`
    SELECT g.group_key, r.session_id
    FROM unnest(${rows.map((r) => r.group_key)}::text[]) AS g(group_key)
    CROSS JOIN LATERAL (
      SELECT t.session_id, rank() OVER (ORDER BY t.last_minute DESC) AS place FROM (
        SELECT l.session_id, l.last_minute FROM alert_signal_last l
        WHERE l.project_id = ${rule.project_id} AND l.kind = ${rule.signal}
          AND l.dimension = ${dimension} AND l.group_key = g.group_key
          AND l.last_minute >= ${fromMinute} AND l.last_minute < ${toMinute}
        ORDER BY l.last_minute DESC LIMIT ${LINK_CANDIDATES}
      ) t
    ) r
    WHERE r.place <= 3`.execute(db);
  const candidates = rows.map((r) => ({
    group_key: r.group_key,
    ids: [...r.late, ...recent.filter((c) => c.group_key === r.group_key).map((c) => c.session_id)],
  }));
  const links = await latestSignals(
    db,
    rule,
    candidates,
    fromMinute * MINUTE_MS,
    toMinute * MINUTE_MS,
  );
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
  // Each candidate's latest signal of the group by its own markers (the session's partition and
  // index, LIMIT 1 keeps the probe per session): not the window's markers of every project.
  const { rows } = await sql<{ g: string; session_id: string; offset_ms: string }>`
    WITH wanted AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(pairs)}::text::jsonb) AS w(g text, id text)
    ),
    sig AS (
      SELECT w.g, s.id AS session_id, latest.ts,
        latest.ts - (extract(epoch FROM s.started_at) * 1000)::bigint AS offset_ms
      FROM wanted w JOIN sessions s ON s.id = w.id
      CROSS JOIN LATERAL (
        SELECT m.ts FROM markers m
        WHERE m.session_id = s.id AND m.session_created_at = s.created_at
          AND m.ts >= ${startMs} AND m.ts < ${endMs} AND m.kind = ${rule.signal}
          AND ${group} = w.g
        ORDER BY m.ts DESC LIMIT 1
      ) latest
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
