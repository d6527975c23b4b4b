// The audit log's rows (migration 0034): one written in the caller's transaction, a replay view
// once per viewer, session and hour, an organization's keyset page, and the rows past retention.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface NewAuditRow {
  id: string;
  organization_id: string;
  action: string;
  actor_id: string | null;
  actor_email: string;
  target_type: string;
  target_id: string | null;
  details: string;
  client_address: string | null;
  created_at: Date;
}

export async function insertAuditRow(db: Kysely<Database>, row: NewAuditRow): Promise<void> {
  await db.insertInto("audit_log").values(withDetails(row)).execute();
}

/** The details as a JSON object on both drivers (a text parameter, cast: never a JSON string). */
function withDetails<R extends NewAuditRow>(row: R) {
  return { ...row, details: sql<string>`${row.details}::text::jsonb` };
}

/** A `session.view` row unless one exists for its viewer, session and hour; true when written. */
export async function insertViewRow(
  db: Kysely<Database>,
  row: NewAuditRow & { view_hour: Date },
): Promise<boolean> {
  const result = await db.insertInto("audit_log").values(withDetails(row))
    .onConflict((oc) =>
      oc.columns(["organization_id", "actor_id", "target_id", "view_hour"])
        .where("view_hour", "is not", null).doNothing()
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Newest first, after the keyset position `after` (the last row's time and id). */
export async function auditRows(
  db: Kysely<Database>,
  input: {
    organizationId: string;
    action?: string;
    after?: { createdAt: Date; id: string };
    limit: number;
  },
) {
  let query = db.selectFrom("audit_log")
    .select([
      "id",
      "action",
      "actor_id",
      "actor_email",
      "target_type",
      "target_id",
      "details",
      "client_address",
      "created_at",
    ])
    .where("organization_id", "=", input.organizationId);
  if (input.action) query = query.where("action", "=", input.action);
  const after = input.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb("created_at", "<", after.createdAt),
        eb.and([eb("created_at", "=", after.createdAt), eb("id", "<", after.id)]),
      ])
    );
  }
  return await query.orderBy("created_at", "desc").orderBy("id", "desc").limit(input.limit)
    .execute();
}

/** Deletes up to `limit` of the rows written before `before`, oldest first; how many. */
export async function deleteAuditRowsBefore(
  db: Kysely<Database>,
  before: Date,
  limit: number,
): Promise<number> {
  const result = await db.deleteFrom("audit_log").where(
    "id",
    "in",
    (eb) =>
      eb.selectFrom("audit_log").select("id").where("created_at", "<", before)
        .orderBy("created_at").limit(limit),
  ).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function auditViewsOn(db: Kysely<Database>, organizationId: string) {
  const row = await db.selectFrom("organizations").select("audit_views")
    .where("id", "=", organizationId).executeTakeFirst();
  return row?.audit_views ?? false;
}
