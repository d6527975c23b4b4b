// The invited side of invites: a user's pending invites by email, and answering one under the
// invite's row lock so that an invite is accepted or declined at most once.
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "@/db/schema.ts";
import type { InviteRole } from "@/db/queries/organizations/invites.ts";

/** Invites joined to their organization and inviter, the shape both readers return. */
function withContext(db: Kysely<Database>) {
  return db.selectFrom("invites as i")
    .innerJoin("organizations as o", "o.id", "i.organization_id")
    .leftJoin("users as u", "u.id", "i.invited_by_id")
    .select([
      "i.id",
      "i.role",
      "i.status",
      "i.expires_at",
      "i.created_at",
      "o.id as organization_id",
      "o.name as organization_name",
      "u.name as inviter_name",
      "u.email as inviter_email",
    ]);
}

/** PENDING, unexpired invites addressed to the email, with organization and inviter. */
export async function pendingInvitesFor(db: Kysely<Database>, email: string) {
  return await withContext(db)
    .where(sql`lower(i.email)`, "=", email.toLowerCase())
    .where("i.status", "=", "PENDING")
    .where("i.expires_at", ">", sql<Date>`now()`)
    .orderBy("i.created_at", "desc").orderBy("i.id", "desc").execute();
}

/** One invite with its organization and inviter (any status), for answers. */
export async function inviteWithContext(db: Kysely<Database>, inviteId: string) {
  return await withContext(db)
    .where("i.id", "=", inviteId).executeTakeFirst() ?? null;
}

export interface LockedInvite {
  id: string;
  organization_id: string;
  email: string;
  role: InviteRole;
  status: string;
  /** expires_at has passed by the database's clock. */
  lapsed: boolean;
}

/** Runs `answer` with the invite's row locked (null: no such invite). */
export async function withLockedInvite<T>(
  db: Kysely<Database>,
  inviteId: string,
  answer: (tx: Transaction<Database>, invite: LockedInvite | null) => Promise<T>,
): Promise<T> {
  return await db.transaction().execute(async (tx) => {
    const invite = await tx.selectFrom("invites")
      .select([
        "id",
        "organization_id",
        "email",
        "role",
        "status",
        sql<boolean>`expires_at <= now()`.as("lapsed"),
      ])
      .where("id", "=", inviteId).forUpdate().executeTakeFirst();
    return await answer(tx, invite ?? null);
  });
}

export async function setInviteStatus(
  tx: Kysely<Database>,
  inviteId: string,
  status: "EXPIRED" | "ACCEPTED" | "DECLINED",
): Promise<void> {
  await tx.updateTable("invites").set({ status, updated_at: sql<Date>`now()` })
    .where("id", "=", inviteId).execute();
}

/**
 * Adds the user to the organization with the invite's role and makes it their active one when
 * they have none. False when they are already a member.
 */
export async function joinOrganization(
  tx: Kysely<Database>,
  input: { membershipId: string; organizationId: string; userId: string; role: InviteRole },
): Promise<boolean> {
  const inserted = await tx.insertInto("memberships").values({
    id: input.membershipId,
    organization_id: input.organizationId,
    user_id: input.userId,
    role: input.role,
  }).onConflict((oc) => oc.columns(["organization_id", "user_id"]).doNothing())
    .returning("id").executeTakeFirst();
  if (!inserted) return false;
  // "None" includes a pointer to an organization they no longer belong to.
  await sql`
    UPDATE users SET active_organization_id = ${input.organizationId}, updated_at = now()
    WHERE id = ${input.userId} AND (active_organization_id IS NULL OR NOT EXISTS (
      SELECT 1 FROM memberships m
      WHERE m.organization_id = users.active_organization_id AND m.user_id = users.id))`
    .execute(tx);
  return true;
}
