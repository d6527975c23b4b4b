// An alert rule's evaluation (docs/decisions.md "Alerts"): the minute's claim, the distinct
// sessions per group with the rule's signal marker in the window (markers_alert_signals_idx of
// migration 0038: the window's markers of one kind, in the sessions created since a day before
// the window, so only the newest day partitions are read), the groups in cooldown, and the firing
// written with its outbox rows.
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { AlertDeliveryTable, Database } from "@/db/schema.ts";
import type { Insertable } from "kysely";
import type { AlertRuleRow } from "./rules.ts";
import { insertDeliveries } from "./outbox.ts";

const DAY_MS = 86_400_000;

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

const GROUP_EXPRESSION: Record<string, RawBuilder<string>> = {
  page: sql`signal_page(s.url_ts, s.url_pathnames, m.ts)`,
  selector: sql`m.data ->> 'selector'`,
  error_group: sql`error_fingerprint(m.data)`,
  endpoint: sql`m.data ->> 'endpoint'`,
};

/** The groups with at least `threshold` distinct sessions in [start, end). */
export async function groupsOverThreshold(
  db: Kysely<Database>,
  rule: Pick<AlertRuleRow, "project_id" | "signal" | "group_by" | "threshold">,
  start: Date,
  end: Date,
): Promise<GroupCount[]> {
  const group = rule.group_by ? GROUP_EXPRESSION[rule.group_by] : sql<string>`''`;
  // The window's markers are read through the index: parallel workers only add their start-up
  // (52 of 61 ms in one plan measured, docs/decisions.md "Alerts"). Call inside a transaction.
  await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(db);
  const { rows } = await sql<
    { group_key: string; count: number; ids: string[]; offsets: string[] }
  >`
    WITH sig AS (
      SELECT DISTINCT ON (g, m.session_id) ${group} AS g, m.session_id, m.ts,
        m.ts - (extract(epoch FROM s.started_at) * 1000)::bigint AS offset_ms
      FROM markers m JOIN sessions s ON s.id = m.session_id
      WHERE m.kind = ${rule.signal} AND m.ts >= ${start.getTime()} AND m.ts < ${end.getTime()}
        AND m.session_created_at >= ${new Date(start.getTime() - DAY_MS)}
        AND s.project_id = ${rule.project_id}
      ORDER BY g, m.session_id, m.ts DESC
    )
    SELECT g AS group_key, count(*)::integer AS count,
      (array_agg(session_id ORDER BY ts DESC))[1:3] AS ids,
      (array_agg(offset_ms::text ORDER BY ts DESC))[1:3] AS offsets
    FROM sig WHERE g IS NOT NULL
    GROUP BY g HAVING count(*) >= ${rule.threshold}
    ORDER BY count DESC, g LIMIT 100`.execute(db);
  return rows.map((r) => ({
    group_key: r.group_key,
    count: r.count,
    sessions: r.ids.map((id, i) => ({ id, offset: Math.max(0, Number(r.offsets[i])) })),
  }));
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
