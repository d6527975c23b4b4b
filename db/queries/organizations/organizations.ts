// Organizations and the viewer's memberships in them.
import { createId } from "@paralleldrive/cuid2";
import { type Kysely, sql } from "kysely";
import type { Database, Role } from "@/db/schema.ts";
import { deleteOrganizations } from "./rosters.ts";

export async function membershipRole(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
): Promise<Role | null> {
  const row = await db.selectFrom("memberships").select("role")
    .where("organization_id", "=", organizationId).where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.role ?? null;
}

/** The user's organizations with their role and member count, oldest membership first. */
export async function organizationsOf(db: Kysely<Database>, userId: string) {
  return await db.selectFrom("memberships as m")
    .innerJoin("organizations as o", "o.id", "m.organization_id")
    .select([
      "o.id",
      "o.name",
      "o.created_at",
      "o.allow_public_links",
      "o.audit_views",
      "m.role",
      sql<number>`(SELECT count(*) FROM memberships c WHERE c.organization_id = o.id)::int`
        .as("member_count"),
    ])
    .where("m.user_id", "=", userId).orderBy("m.created_at").orderBy("o.id").execute();
}

/** A new organization with its creator as OWNER, made active when the user has none. */
export async function createOrganization(db: Kysely<Database>, userId: string, name: string) {
  return await db.transaction().execute(async (tx) => {
    const id = createId();
    await tx.insertInto("organizations").values({ id, name }).execute();
    await tx.insertInto("memberships")
      .values({ id: createId(), organization_id: id, user_id: userId, role: "OWNER" }).execute();
    await tx.updateTable("users").set({ active_organization_id: id })
      .where("id", "=", userId).where("active_organization_id", "is", null).execute();
    return id;
  });
}

export async function setActiveOrganization(
  db: Kysely<Database>,
  userId: string,
  organizationId: string | null,
): Promise<void> {
  await db.updateTable("users").set({ active_organization_id: organizationId })
    .where("id", "=", userId).execute();
}

/** Whether public links to the organization's sessions may be made and opened (migration 0022). */
export async function setAllowPublicLinks(db: Kysely<Database>, id: string, allow: boolean) {
  await db.updateTable("organizations").set({ allow_public_links: allow }).where("id", "=", id)
    .execute();
}

/** Whether opening a replay writes a `session.view` audit row (migration 0034). */
export async function setAuditViews(db: Kysely<Database>, id: string, on: boolean) {
  await db.updateTable("organizations").set({ audit_views: on }).where("id", "=", id).execute();
}

export async function renameOrganization(db: Kysely<Database>, id: string, name: string) {
  await db.updateTable("organizations").set({ name, updated_at: new Date() })
    .where("id", "=", id).execute();
}

/** Deletes the organization and everything below it, nulling active pointers first. */
export async function deleteOrganization(db: Kysely<Database>, id: string): Promise<void> {
  await db.transaction().execute((tx) => deleteOrganizations(tx, [id]));
}
