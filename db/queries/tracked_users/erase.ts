// A tracked user's erasure (docs/decisions.md "Erasure"), inside the caller's transaction: their
// sessions erased (db/queries/sessions/erase.ts), the signal rows naming them, the user, and a
// tombstone holding only the SHA-256 of their external id.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { type ErasedCounts, eraseSessions } from "@/db/queries/sessions/erase.ts";

type Db = Kysely<Database>;

/** The user, locked for the erasure; null when the organization has none of that id. */
export async function lockTrackedUser(trx: Db, organizationId: string, id: string) {
  const row = await trx.selectFrom("tracked_users").select(["id", "project_id", "external_id"])
    .where("organization_id", "=", organizationId).where("id", "=", id)
    .forUpdate().executeTakeFirst();
  return row ?? null;
}

/** Erases a locked user (lockTrackedUser) and everything recorded of them. */
export async function eraseTrackedUserRows(
  trx: Db,
  organizationId: string,
  user: { id: string; project_id: string },
  externalIdSha256: string,
): Promise<ErasedCounts> {
  const counts = await eraseSessions(trx, { organizationId, trackedUserId: user.id });
  // The users who met a signal (the rollups were seen to by eraseSessions).
  await sql`DELETE FROM signal_users WHERE tracked_user_id = ${user.id}`.execute(trx);
  await sql`DELETE FROM tracked_user_pending WHERE tracked_user_id = ${user.id}`.execute(trx);
  await trx.deleteFrom("tracked_users").where("id", "=", user.id).execute();
  await trx.insertInto("erased_tracked_users").values({
    project_id: user.project_id,
    external_id_sha256: externalIdSha256,
    sessions: counts.sessions,
  }).execute();
  return counts;
}
