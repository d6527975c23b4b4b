// The display-name chain step by step, evaluated by the database itself.
import assert from "node:assert/strict";
import type { Kysely } from "kysely";
import { createTestDb } from "@/tests/helpers/db.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertTrackedUser } from "@/tests/helpers/sessions_factories.ts";
import type { Database } from "@/db/schema.ts";
import { displayNameSql } from "./display_name.ts";

async function nameOf(db: Kysely<Database>, trackedUserId: string): Promise<string | null> {
  const row = await db.selectFrom("tracked_users")
    .innerJoin("projects", "projects.id", "tracked_users.project_id")
    .select(displayNameSql().as("name"))
    .where("tracked_users.id", "=", trackedUserId)
    .executeTakeFirstOrThrow();
  return row.name;
}

Deno.test("display name: custom name, own trait key, project trait key, externalId in order", async () => {
  await using db = await createTestDb();
  const project = await insertProject(db.kysely);
  await db.kysely.updateTable("projects").set({ display_name_trait_key: "email" })
    .where("id", "=", project.id).execute();
  const traits = { name: "  Ada  ", email: "ada@example.test", age: 36, vip: true, blank: "  " };
  const user = (o: Parameters<typeof insertTrackedUser>[2]) =>
    insertTrackedUser(db.kysely, project, { externalId: " ext-1 ", traits, ...o });

  assert.equal(await nameOf(db.kysely, (await user({ customName: " Boss " })).id), "Boss");
  assert.equal(
    await nameOf(db.kysely, (await user({ externalId: "e2", traitKey: "name" })).id),
    "Ada",
  );
  assert.equal(
    await nameOf(db.kysely, (await user({ externalId: "e3", traitKey: "age" })).id),
    "36",
  );
  assert.equal(
    await nameOf(db.kysely, (await user({ externalId: "e4", traitKey: "vip" })).id),
    "true",
  );
  // Blank custom name and blank or missing own trait fall through to the project's key.
  const falls = await user({ externalId: "e5", customName: "  ", traitKey: "blank" });
  assert.equal(await nameOf(db.kysely, falls.id), "ada@example.test");
  const missing = await user({ externalId: "e6", traitKey: "nope" });
  assert.equal(await nameOf(db.kysely, missing.id), "ada@example.test");
});

Deno.test("display name: objects, arrays and null traits fall through to the externalId", async () => {
  await using db = await createTestDb();
  const project = await insertProject(db.kysely);
  await db.kysely.updateTable("projects").set({ display_name_trait_key: "list" })
    .where("id", "=", project.id).execute();
  const user = await insertTrackedUser(db.kysely, project, {
    externalId: " ext-9 ",
    traits: { obj: { a: 1 }, list: [1], nil: null },
    traitKey: "obj",
  });
  assert.equal(await nameOf(db.kysely, user.id), "ext-9");
  const other = await insertTrackedUser(db.kysely, project, { externalId: "x", traitKey: "nil" });
  assert.equal(await nameOf(db.kysely, other.id), "x");
});
