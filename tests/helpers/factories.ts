// Test factories: rows with realistic random values, overridable field by field.
import { createId } from "@paralleldrive/cuid2";
import type { Kysely } from "kysely";
import type { Database, Role } from "@/db/schema.ts";

export { generateProjectKey as randomKey } from "@/core/projects/keys.ts";
import { generateProjectKey as randomKey } from "@/core/projects/keys.ts";

export async function insertOrganization(db: Kysely<Database>, name = "Acme") {
  return await db.insertInto("organizations").values({ id: createId(), name })
    .returningAll().executeTakeFirstOrThrow();
}

export async function insertUser(db: Kysely<Database>, email = `${createId()}@example.test`) {
  return await db.insertInto("users")
    .values({ id: createId(), email, name: "Test User", avatar_seed: crypto.randomUUID() })
    .returningAll().executeTakeFirstOrThrow();
}

export async function insertMembership(
  db: Kysely<Database>,
  organizationId: string,
  userId: string,
  role: Role,
) {
  return await db.insertInto("memberships")
    .values({ id: createId(), organization_id: organizationId, user_id: userId, role })
    .returningAll().executeTakeFirstOrThrow();
}

/** A project (in a new organization unless one is given) with a fresh key. */
export async function insertProject(
  db: Kysely<Database>,
  overrides: {
    organizationId?: string;
    name?: string;
    key?: string;
    /** Network capture on: ingest keeps the requests its batches carry (off by default). */
    network?: boolean;
  } = {},
) {
  const organizationId = overrides.organizationId ?? (await insertOrganization(db)).id;
  return await db.insertInto("projects").values({
    id: createId(),
    organization_id: organizationId,
    name: overrides.name ?? "Storefront",
    key: overrides.key ?? randomKey(),
    network_enabled: overrides.network ?? false,
  }).returningAll().executeTakeFirstOrThrow();
}
