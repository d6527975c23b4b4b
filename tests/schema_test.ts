// The data model's keys and ON DELETE rules: a session takes its batches and markers, a tracked
// user's sessions stay (unlinked), an organization and a user take what hangs below them.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp } from "./helpers/app.ts";
import { insertMembership, insertProject, insertUser } from "./helpers/factories.ts";
import { ingestRowCounts, METADATA, postIngest, recordedEvents } from "./helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

/** A project with one identified session holding a batch and markers. */
async function seeded() {
  const t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  await postIngest(t.app, {
    sessionId: crypto.randomUUID(),
    events: recordedEvents(3, T0),
    metadata: { ...METADATA, userIdentity: { userId: "u1", traits: {} } },
  }, { key: project.key });
  return Object.assign(t, { project });
}

Deno.test("schema: deleting a session deletes its batches and markers", async () => {
  await using t = await seeded();
  await t.db.kysely.deleteFrom("sessions").execute();
  assert.deepEqual(await ingestRowCounts(t.db.kysely), {
    sessions: 0,
    eventBatches: 0,
    markers: 0,
    trackedUsers: 1,
  });
});

Deno.test("schema: deleting a tracked user keeps its sessions, unlinked", async () => {
  await using t = await seeded();
  await t.db.kysely.deleteFrom("tracked_users").execute();
  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.tracked_user_id, null);
  assert.equal((await ingestRowCounts(t.db.kysely)).eventBatches, 1);
});

Deno.test("schema: deleting an organization removes everything below it and nulls active pointers", async () => {
  await using t = await seeded();
  const db = t.db.kysely;
  const user = await insertUser(db);
  await insertMembership(db, t.project.organization_id, user.id, "OWNER");
  await db.updateTable("users").set({ active_organization_id: t.project.organization_id })
    .execute();
  await db.deleteFrom("organizations").where("id", "=", t.project.organization_id).execute();
  assert.deepEqual(await ingestRowCounts(db), {
    sessions: 0,
    eventBatches: 0,
    markers: 0,
    trackedUsers: 0,
  });
  assert.equal((await db.selectFrom("projects").selectAll().execute()).length, 0);
  assert.equal((await db.selectFrom("memberships").selectAll().execute()).length, 0);
  const kept = await db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
  assert.equal(kept.active_organization_id, null);
});

Deno.test("schema: keys are unique and well-formed; one session per (project, externalId)", async () => {
  await using t = await seeded();
  const db = t.db.kysely;
  await assert.rejects(insertProject(db, { key: t.project.key }));
  await assert.rejects(insertProject(db, { key: "sp_short" }));
  const existing = await db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  await assert.rejects(sql`
    INSERT INTO sessions (id, project_id, organization_id, external_id, started_at)
    VALUES ('dup', ${existing.project_id}, ${existing.organization_id}, ${existing.external_id}, now())
  `.execute(db));
});
