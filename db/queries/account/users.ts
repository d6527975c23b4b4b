// Users: lookups, creation with a first workspace, profile changes and token versions.
import { createId } from "@paralleldrive/cuid2";
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export async function findUserById(db: Kysely<Database>, id: string) {
  return await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst() ?? null;
}

export async function findUserByEmail(db: Kysely<Database>, email: string) {
  return await db.selectFrom("users").selectAll()
    .where(sql`lower(email)`, "=", email.toLowerCase()).executeTakeFirst() ?? null;
}

export async function tokenVersionOf(db: Kysely<Database>, userId: string) {
  const row = await db.selectFrom("users").select("token_version").where("id", "=", userId)
    .executeTakeFirst();
  return row?.token_version ?? null;
}

/** Revokes every session token of the user. */
export async function bumpTokenVersion(db: Kysely<Database>, userId: string): Promise<void> {
  await db.updateTable("users").set((eb) => ({ token_version: eb("token_version", "+", 1) }))
    .where("id", "=", userId).execute();
}

export interface NewUser {
  email: string;
  name: string | null;
  /** The organization they start in, as its owner; null: none (an invite waits for them). */
  workspaceName: string | null;
  verified: boolean;
  /**
   * An organization the new user takes as their workspace (renamed to `workspaceName`) instead of
   * a new one, when it exists and has no members (development's Playground).
   */
  adoptOrganizationId?: string;
}

/**
 * Creates a user with an organization of their own (OWNER, made active), or returns the user
 * who already has the email (two sign-ins racing for one new address create one user).
 */
export async function findOrCreateUser(
  db: Kysely<Database>,
  input: NewUser,
): Promise<{ id: string; created: boolean; adopted: boolean }> {
  return await db.transaction().execute(async (tx) => {
    const id = createId();
    const inserted = await sql<{ id: string }>`
      INSERT INTO users (id, email, name, avatar_seed, email_verified_at)
      VALUES (${id}, ${input.email}, ${input.name}, ${crypto.randomUUID()},
        ${input.verified ? sql`now()` : null})
      ON CONFLICT ((lower(email))) DO NOTHING
      RETURNING id`.execute(tx);
    if (!inserted.rows.length) {
      const existing = await findUserByEmail(tx, input.email);
      return { id: existing!.id, created: false, adopted: false };
    }
    if (input.workspaceName === null) return { id, created: true, adopted: false };
    const adopted = input.adoptOrganizationId
      ? await adoptOrganization(tx, input.adoptOrganizationId, input.workspaceName)
      : false;
    const organizationId = adopted ? input.adoptOrganizationId! : createId();
    if (!adopted) {
      await tx.insertInto("organizations").values({ id: organizationId, name: input.workspaceName })
        .execute();
    }
    await tx.insertInto("memberships")
      .values({ id: createId(), organization_id: organizationId, user_id: id, role: "OWNER" })
      .execute();
    await tx.updateTable("users").set({ active_organization_id: organizationId })
      .where("id", "=", id).execute();
    return { id, created: true, adopted };
  });
}

/**
 * Renames the organization for its new owner when it exists and has no members. The row lock
 * makes two first sign-ins queue here; the member check after it sees the winner's membership.
 */
async function adoptOrganization(tx: Kysely<Database>, id: string, name: string) {
  const locked = await tx.selectFrom("organizations").select("id").where("id", "=", id)
    .forUpdate().executeTakeFirst();
  if (!locked) return false;
  const member = await tx.selectFrom("memberships").select("id")
    .where("organization_id", "=", id).limit(1).executeTakeFirst();
  if (member) return false;
  await tx.updateTable("organizations").set({ name, updated_at: new Date() })
    .where("id", "=", id).execute();
  return true;
}

/** The linked OAuth providers and registered passkeys shown on the profile. */
export async function loginMethodsOf(db: Kysely<Database>, userId: string) {
  const [accounts, passkeys] = await Promise.all([
    db.selectFrom("accounts").select("provider").where("user_id", "=", userId)
      .orderBy("created_at").execute(),
    db.selectFrom("authenticators")
      .select(["credential_id", "name", "credential_device_type", "created_at"])
      .where("user_id", "=", userId).orderBy("created_at").execute(),
  ]);
  return { accounts, passkeys };
}

export async function renameUser(db: Kysely<Database>, userId: string, name: string) {
  await db.updateTable("users").set({ name, updated_at: new Date() }).where("id", "=", userId)
    .execute();
}

export async function setAvatarSeed(db: Kysely<Database>, userId: string, seed: string) {
  await db.updateTable("users").set({ avatar_seed: seed, updated_at: new Date() })
    .where("id", "=", userId).execute();
}
