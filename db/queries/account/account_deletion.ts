// The statements of the account deletion transaction that core/account/account_deletion.ts runs.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";

/** Every organization the user belongs to. */
export async function organizationIdsOf(db: Kysely<Database>, userId: string): Promise<string[]> {
  const rows = await db.selectFrom("memberships").select("organization_id")
    .where("user_id", "=", userId).execute();
  return rows.map((r) => r.organization_id);
}

/** Deletes the user row; their memberships, accounts and passkeys cascade. */
export async function deleteUserRow(db: Kysely<Database>, userId: string): Promise<void> {
  await db.deleteFrom("users").where("id", "=", userId).execute();
}
