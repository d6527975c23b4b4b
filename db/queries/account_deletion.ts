// Deleting a user account in one transaction (spec §2 rules 3 and 4): organisations where the
// user is the only member go, shared ones keep an owner, then the user row cascades the rest.
import type { Kysely, Transaction } from "kysely";
import { heirOnLeaving, type MemberRef } from "../../core/ownership.ts";
import type { Database } from "../schema.ts";

export interface AccountDeletion {
  deletedOrganizationIds: string[];
  newOwners: Array<{ organizationId: string; userId: string }>;
}

export async function deleteUserAccount(
  db: Kysely<Database>,
  userId: string,
): Promise<AccountDeletion> {
  return await db.transaction().execute(async (tx) => {
    const orgIds = (await tx.selectFrom("memberships").select("organization_id")
      .where("user_id", "=", userId).execute()).map((r) => r.organization_id);
    const rosters = await lockedRosters(tx, orgIds);
    const result: AccountDeletion = { deletedOrganizationIds: [], newOwners: [] };
    for (const [organizationId, members] of rosters) {
      if (members.every((m) => m.userId === userId)) {
        result.deletedOrganizationIds.push(organizationId);
        continue;
      }
      const heir = heirOnLeaving(members, userId);
      if (heir) {
        await tx.updateTable("memberships").set({ role: "OWNER" }).where("id", "=", heir.id)
          .execute();
        result.newOwners.push({ organizationId, userId: heir.userId });
      }
    }
    await deleteOrganizations(tx, result.deletedOrganizationIds);
    await tx.deleteFrom("users").where("id", "=", userId).execute();
    return result;
  });
}

/**
 * The rosters of the given organisations, after locking the organisation rows (in id order, so
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

/** Nulls every active-organisation pointer to them first (rule 4), then deletes them. */
export async function deleteOrganizations(
  tx: Kysely<Database>,
  orgIds: string[],
): Promise<void> {
  if (!orgIds.length) return;
  await tx.updateTable("users").set({ active_organization_id: null })
    .where("active_organization_id", "in", orgIds).execute();
  await tx.deleteFrom("organizations").where("id", "in", orgIds).execute();
}
