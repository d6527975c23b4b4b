// Alert rules of an organization (migration 0038): insert, change, delete, list with each rule's
// last firing, and a rule's deliveries.
import { type Kysely, sql } from "kysely";
import type { AlertDeliveryTable, AlertRuleTable, Database } from "@/db/schema.ts";
import type { Insertable, Selectable, Updateable } from "kysely";

export type AlertRuleRow = Selectable<AlertRuleTable>;
export type AlertDeliveryRow = Selectable<AlertDeliveryTable>;

export interface LastFiring {
  group_key: string;
  count: number;
  fired_at: Date;
}

/** A JSON text stored as a JSON value on both drivers (a text parameter, cast: never a string). */
export const jsonValue = (text: string) => sql<string>`${text}::text::jsonb`;

export async function insertAlertRule(db: Kysely<Database>, row: Insertable<AlertRuleTable>) {
  await db.insertInto("alert_rules").values({ ...row, deliver: jsonValue(row.deliver) }).execute();
}

export async function alertRuleById(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<AlertRuleRow | undefined> {
  return await db.selectFrom("alert_rules").selectAll()
    .where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
}

export async function updateAlertRule(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
  changes: Updateable<AlertRuleTable>,
): Promise<boolean> {
  const set = changes.deliver ? { ...changes, deliver: jsonValue(changes.deliver) } : changes;
  const result = await db.updateTable("alert_rules").set(set)
    .where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function deleteAlertRule(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<boolean> {
  const result = await db.deleteFrom("alert_rules")
    .where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The organization's rules (of one project when given), oldest first, with their last firing. */
export async function alertRulesOf(
  db: Kysely<Database>,
  organizationId: string,
  projectId: string | null,
): Promise<(AlertRuleRow & { last: LastFiring | null })[]> {
  let query = db.selectFrom("alert_rules").selectAll()
    .where("organization_id", "=", organizationId);
  if (projectId) query = query.where("project_id", "=", projectId);
  const rules = await query.orderBy("created_at").orderBy("id").limit(500).execute();
  const out = [];
  for (const rule of rules) {
    const last = await db.selectFrom("alert_firings").select(["group_key", "count", "fired_at"])
      .where("rule_id", "=", rule.id).orderBy("fired_at", "desc").limit(1).executeTakeFirst();
    out.push({ ...rule, last: last ?? null });
  }
  return out;
}

/** A rule's deliveries, newest first (at most 100). */
export async function deliveriesOf(
  db: Kysely<Database>,
  ruleId: string,
): Promise<AlertDeliveryRow[]> {
  return await db.selectFrom("alert_deliveries").selectAll().where("rule_id", "=", ruleId)
    .orderBy("created_at", "desc").orderBy("id").limit(100).execute();
}

export async function projectOfOrganization(
  db: Kysely<Database>,
  organizationId: string,
  projectId: string,
): Promise<boolean> {
  const row = await db.selectFrom("projects").select("id")
    .where("organization_id", "=", organizationId).where("id", "=", projectId)
    .executeTakeFirst();
  return !!row;
}

/** The stored /sessions query of the organization's saved search `id` (migration 0037). */
export async function savedSearchQuery(
  db: Kysely<Database>,
  organizationId: string,
  id: string,
): Promise<string | undefined> {
  const row = await db.selectFrom("saved_searches").select("query")
    .where("organization_id", "=", organizationId).where("id", "=", id).executeTakeFirst();
  return row?.query;
}
