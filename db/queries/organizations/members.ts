// Organization rosters: listing, and role changes and removals under the organization row lock
// so that concurrent changes can never leave an organization without an owner.
import type { Kysely, Transaction } from "kysely";
import type { Database, Role } from "@/db/schema.ts";
import { lockedRosters, type MemberRef } from "./rosters.ts";

/** Members with their user, oldest first. */
export async function listMembers(db: Kysely<Database>, organizationId: string) {
  return await db.selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.user_id")
    .select([
      "m.id",
      "m.role",
      "m.created_at",
      "u.id as user_id",
      "u.name",
      "u.email",
      "u.avatar_seed",
    ])
    .where("m.organization_id", "=", organizationId)
    .orderBy("m.created_at").orderBy("m.id").execute();
}

/** Runs `change` with the organization's roster locked (empty roster: no such organization). */
export async function withLockedRoster<T>(
  db: Kysely<Database>,
  organizationId: string,
  change: (tx: Transaction<Database>, roster: MemberRef[]) => Promise<T>,
): Promise<T> {
  return await db.transaction().execute(async (tx) => {
    const rosters = await lockedRosters(tx, [organizationId]);
    return await change(tx, rosters.get(organizationId) ?? []);
  });
}

export async function setRole(tx: Kysely<Database>, membershipId: string, role: Role) {
  await tx.updateTable("memberships").set({ role }).where("id", "=", membershipId).execute();
}

/** Removes a membership and clears the user's active pointer when it referred to that org. */
export async function removeMembership(tx: Kysely<Database>, member: MemberRef, orgId: string) {
  await tx.deleteFrom("memberships").where("id", "=", member.id).execute();
  await tx.updateTable("users").set({ active_organization_id: null })
    .where("id", "=", member.userId).where("active_organization_id", "=", orgId).execute();
}
