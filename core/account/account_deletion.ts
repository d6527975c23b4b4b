// Deleting a user account in one transaction: organizations where the user is the only member go
// (their users' active-organization pointers nulled first), shared ones keep an owner, then the
// user row cascades the rest (docs/decisions.md "Account").
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { deleteOrganizations, lockedRosters } from "@/db/queries/organizations/rosters.ts";
import { setRole } from "@/db/queries/organizations/members.ts";
import { deleteUserRow, organizationIdsOf } from "@/db/queries/account/account_deletion.ts";
import { heirOnLeaving } from "@/core/organizations/ownership.ts";

export interface AccountDeletion {
  deletedOrganizationIds: string[];
  newOwners: Array<{ organizationId: string; userId: string }>;
}

export async function deleteUserAccount(
  db: Kysely<Database>,
  userId: string,
): Promise<AccountDeletion> {
  return await db.transaction().execute(async (tx) => {
    const rosters = await lockedRosters(tx, await organizationIdsOf(tx, userId));
    const result: AccountDeletion = { deletedOrganizationIds: [], newOwners: [] };
    for (const [organizationId, members] of rosters) {
      if (members.every((m) => m.userId === userId)) {
        result.deletedOrganizationIds.push(organizationId);
        continue;
      }
      const heir = heirOnLeaving(members, userId);
      if (heir) {
        await setRole(tx, heir.id, "OWNER");
        result.newOwners.push({ organizationId, userId: heir.userId });
      }
    }
    await deleteOrganizations(tx, result.deletedOrganizationIds);
    await deleteUserRow(tx, userId);
    return result;
  });
}
