// Development convenience: one organization with one project, so a fresh `deno task dev` can
// take a first batch before any account exists; the first user to sign in takes that organization
// as their workspace (core/service/playground.ts).
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";

export const DEV_ORGANIZATION_ID = "dev-organization";
const DEV_PROJECT_ID = "dev-project";

/** Creates the development project once and returns its key. */
export async function ensureDevProject(db: Kysely<Database>, newKey: () => string) {
  await db.insertInto("organizations")
    .values({ id: DEV_ORGANIZATION_ID, name: "Development" })
    .onConflict((oc) => oc.column("id").doNothing()).execute();
  await db.insertInto("projects").values({
    id: DEV_PROJECT_ID,
    organization_id: DEV_ORGANIZATION_ID,
    name: "Playground",
    key: newKey(),
  }).onConflict((oc) => oc.column("id").doNothing()).execute();
  return await db.selectFrom("projects").select(["id", "name", "key"])
    .where("id", "=", DEV_PROJECT_ID).executeTakeFirstOrThrow();
}
