// Organization rosters read under the organization row lock, and deleting organizations: the
// pieces the member changes and the account deletion transaction (core/account/) share.
import type { Kysely, Transaction } from "kysely";
import type { Database, Role } from "@/db/schema.ts";

/** One membership of a roster, as core/organizations/ownership.ts decides on it. */
export interface MemberRef {
  id: string;
  userId: string;
  role: Role;
  createdAt: Date;
}

/**
 * The rosters of the given organizations, after locking the organization rows (in id order, so
 * concurrent leavers cannot deadlock or both hand ownership to nobody).
 */
export async function lockedRosters(
  tx: Transaction<Database>,
  orgIds: string[],
): Promise<Map<string, MemberRef[]>> {
  const rosters = new Map<string, MemberRef[]>();
  if (!orgIds.length) return rosters;
  const locked = await tx.selectFrom("organizations").select("id").where("id", "in", orgIds)
    .orderBy("id").forUpdate().execute();
  for (const { id } of locked) rosters.set(id, []);
  const rows = await tx.selectFrom("memberships")
    .select(["id", "user_id", "role", "created_at", "organization_id"])
    .where("organization_id", "in", orgIds).orderBy("created_at").orderBy("id").execute();
  for (const row of rows) {
    rosters.get(row.organization_id)?.push({
      id: row.id,
      userId: row.user_id,
      role: row.role,
      createdAt: new Date(row.created_at),
    });
  }
  return rosters;
}

/** Nulls every active-organization pointer to them first, then deletes them. */
export async function deleteOrganizations(
  tx: Kysely<Database>,
  orgIds: string[],
): Promise<void> {
  if (!orgIds.length) return;
  await tx.updateTable("users").set({ active_organization_id: null })
    .where("active_organization_id", "in", orgIds).execute();
  await tx.deleteFrom("organizations").where("id", "in", orgIds).execute();
}
