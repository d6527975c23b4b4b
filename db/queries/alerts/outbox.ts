// The outbox of alert deliveries (migration 0038): due rows claimed for a lease (a sender that
// dies mid-send leaves the row to be tried again when the lease ends), then their outcome.
import { type Kysely, sql } from "kysely";
import type { Insertable } from "kysely";
import type { AlertDeliveryTable, Database, DeliveryStatus } from "@/db/schema.ts";
import { type AlertDeliveryRow, type AlertRuleRow, jsonValue } from "./rules.ts";

/**
 * Claims up to `limit` due pending deliveries (of `only` these ids, when given): attempts + 1,
 * next try moved past the lease.
 */
export async function claimDueDeliveries(
  db: Kysely<Database>,
  now: Date,
  leaseMs: number,
  limit: number,
  only?: string[],
): Promise<AlertDeliveryRow[]> {
  const ids = only ? sql`AND id = ANY(${only}::text[])` : sql``;
  const { rows } = await sql<AlertDeliveryRow>`
    UPDATE alert_deliveries SET attempts = attempts + 1,
      next_attempt_at = ${new Date(now.getTime() + leaseMs)}, updated_at = ${now}
    WHERE id IN (SELECT id FROM alert_deliveries
                 WHERE status = 'pending' AND next_attempt_at <= ${now} ${ids}
                 ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING *`.execute(db);
  return rows;
}

export async function ruleForDelivery(
  db: Kysely<Database>,
  ruleId: string,
): Promise<AlertRuleRow | undefined> {
  return await db.selectFrom("alert_rules").selectAll().where("id", "=", ruleId)
    .executeTakeFirst();
}

export async function settleDelivery(
  db: Kysely<Database>,
  id: string,
  outcome: {
    status: DeliveryStatus;
    nextAttemptAt?: Date;
    lastStatus: number | null;
    lastError: string | null;
    now: Date;
  },
): Promise<void> {
  await db.updateTable("alert_deliveries").set({
    status: outcome.status,
    ...(outcome.nextAttemptAt ? { next_attempt_at: outcome.nextAttemptAt } : {}),
    last_status: outcome.lastStatus,
    last_error: outcome.lastError?.slice(0, 500) ?? null,
    updated_at: outcome.now,
  }).where("id", "=", id).where("status", "=", "pending").execute();
}

export async function insertDeliveries(
  db: Kysely<Database>,
  rows: Insertable<AlertDeliveryTable>[],
): Promise<void> {
  if (!rows.length) return;
  await db.insertInto("alert_deliveries")
    .values(rows.map((row) => ({ ...row, payload: jsonValue(row.payload) }))).execute();
}
