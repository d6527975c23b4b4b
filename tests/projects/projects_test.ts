// /api/projects (docs/decisions.md "Projects and keys", "Roles"): creation and
// keys are OWNER-only, renames ADMIN+, reads VIEWER+; another organization's project is 404.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";

async function team(t: TestApp) {
  const owner = await signedInUser(t);
  const orgId = owner.organizationId;
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: orgId });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: orgId });
  const stranger = await signedInUser(t);
  return { orgId, owner, admin, viewer, stranger };
}

Deno.test("projects: an OWNER creates a project with a fresh masked key; ADMIN 403, stranger 404", async () => {
  await using t = await createTestApp();
  const { orgId, owner, admin, stranger } = await team(t);
  const create = (cookie: string) =>
    call(t.app, "POST", "/api/projects", {
      cookie,
      body: { name: " Shop ", organizationId: orgId },
    });
  const res = await create(owner.cookie);
  assert.equal(res.status, 201);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const project = await res.json();
  const row = await t.db.kysely.selectFrom("projects").selectAll().executeTakeFirstOrThrow();
  assert.match(row.key, /^sp_[0-9a-f]{32}$/);
  assert.deepEqual(project, {
    id: row.id,
    name: "Shop",
    maskedKey: row.key.slice(0, 7) + "•".repeat(24) + row.key.slice(-4),
    organizationId: orgId,
    sessionCount: 0,
    lastUsedAt: null,
    displayNameTraitKey: null,
    recording: {
      sampleRate: 1,
      minDurationMs: 0,
      urlBlock: [],
      urlAllow: [],
      triggers: [],
      bufferMs: 60_000,
    },
    network: {
      enabled: false,
      headers: ["content-type", "content-length", "accept"],
      bodyUrls: [],
      vitals: true,
    },
    retentionDays: 7,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  });
  assert.equal((await create(admin.cookie)).status, 403);
  assert.equal((await create(stranger.cookie)).status, 404);
  const bad = await call(t.app, "POST", "/api/projects", {
    cookie: owner.cookie,
    body: { name: "", organizationId: orgId },
  });
  assert.equal(bad.status, 400);
});

Deno.test("projects: GET lists every organization's projects newest first with session counts, no-store", async () => {
  await using t = await createTestApp();
  const { orgId, viewer } = await team(t);
  const db = t.db.kysely;
  const older = await insertProject(db, { organizationId: orgId, name: "Older" });
  await sql`UPDATE projects SET created_at = now() - interval '1 minute' WHERE id = ${older.id}`
    .execute(db);
  const newer = await insertProject(db, { organizationId: orgId, name: "Newer" });
  const second = await (await call(t.app, "POST", "/api/organizations", {
    cookie: viewer.cookie,
    body: { name: "Mine" },
  })).json();
  const mine = await insertProject(db, { organizationId: second.id, name: "Mine" });
  await insertProject(db); // someone else's
  assert.equal(
    (await postIngest(t.app, { sessionId: crypto.randomUUID(), events: recordedEvents(3) }, {
      key: older.key,
    })).status,
    204,
  );

  const res = await call(t.app, "GET", "/api/projects", { cookie: viewer.cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const list = await res.json();
  assert.deepEqual(list.map((p: { id: string }) => p.id), [mine.id, newer.id, older.id]);
  assert.equal(list[2].sessionCount, 1);
  assert.ok(!JSON.stringify(list).includes(older.key));

  const narrowed = await (await call(t.app, "GET", `/api/projects?organizationId=${orgId}`, {
    cookie: viewer.cookie,
  })).json();
  assert.deepEqual(narrowed.map((p: { id: string }) => p.id), [newer.id, older.id]);
  const foreign = await call(
    t.app,
    "GET",
    `/api/projects?organizationId=${(await insertProject(db)).organization_id}`,
    { cookie: viewer.cookie },
  );
  assert.equal(foreign.status, 404);
});

Deno.test("projects: only an OWNER reads the plaintext key (no-store); elsewhere it is 404", async () => {
  await using t = await createTestApp();
  const { orgId, owner, admin, stranger } = await team(t);
  const project = await insertProject(t.db.kysely, { organizationId: orgId });
  const url = `/api/projects/${project.id}/key`;
  const res = await call(t.app, "GET", url, { cookie: owner.cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(await res.json(), { key: project.key });
  assert.equal((await call(t.app, "GET", url, { cookie: admin.cookie })).status, 403);
  const hidden = await call(t.app, "GET", url, { cookie: stranger.cookie });
  assert.equal(hidden.status, 404);
  assert.equal((await hidden.json()).kind, "not_found");
  assert.equal((await call(t.app, "GET", url)).status, 401);
});

Deno.test("projects: regenerating the key is logged and the old key is refused by ingest at once", async () => {
  await using t = await createTestApp();
  const { orgId, owner, admin } = await team(t);
  const project = await insertProject(t.db.kysely, { organizationId: orgId });
  const url = `/api/projects/${project.id}/regenerate-key`;
  assert.equal((await call(t.app, "POST", url, { cookie: admin.cookie })).status, 403);
  const res = await call(t.app, "POST", url, { cookie: owner.cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const body = await res.json();
  assert.equal(body.id, project.id);
  const { key } =
    await (await call(t.app, "GET", `/api/projects/${project.id}/key`, { cookie: owner.cookie }))
      .json();
  assert.notEqual(key, project.key);
  assert.equal(body.maskedKey.slice(-4), key.slice(-4));
  assert.ok(
    t.logs.some((l) => l.tag === "project:key:regenerate:ok" && l.props.projectId === project.id),
  );

  const batch = { sessionId: crypto.randomUUID(), events: recordedEvents(2) };
  const old = await postIngest(t.app, batch, { key: project.key });
  assert.equal(old.status, 401);
  assert.equal((await old.json()).kind, "auth");
  assert.equal((await postIngest(t.app, batch, { key })).status, 204);
});

Deno.test("projects: ADMIN renames and sets the display-name trait key; VIEWER gets 403", async () => {
  await using t = await createTestApp();
  const { orgId, admin, viewer } = await team(t);
  const project = await insertProject(t.db.kysely, { organizationId: orgId });
  const rename = (cookie: string) =>
    call(t.app, "PATCH", `/api/projects/${project.id}`, { cookie, body: { name: "Renamed" } });
  assert.equal((await rename(viewer.cookie)).status, 403);
  const renamed = await rename(admin.cookie);
  assert.equal(renamed.status, 200);
  assert.equal((await renamed.json()).name, "Renamed");

  const traitUrl = `/api/projects/${project.id}/display-name-trait-key`;
  const set = await call(t.app, "PATCH", traitUrl, {
    cookie: admin.cookie,
    body: { traitKey: "email" },
  });
  assert.equal(set.status, 200);
  const setBody = await set.json();
  assert.equal(setBody.displayNameTraitKey, "email");
  assert.equal(setBody.name, "Renamed");
  const cleared = await call(t.app, "PATCH", traitUrl, {
    cookie: admin.cookie,
    body: { traitKey: null },
  });
  assert.equal((await cleared.json()).displayNameTraitKey, null);
  assert.equal(
    (await call(t.app, "PATCH", traitUrl, { cookie: admin.cookie, body: {} })).status,
    400,
  );
  assert.equal(
    (await call(t.app, "PATCH", traitUrl, { cookie: viewer.cookie, body: { traitKey: "x" } }))
      .status,
    403,
  );
});

Deno.test('projects: an OWNER deletes a project with the phrase "delete project"', async () => {
  await using t = await createTestApp();
  const { orgId, owner, admin } = await team(t);
  const project = await insertProject(t.db.kysely, { organizationId: orgId });
  const del = (cookie: string, confirmation: string) =>
    call(t.app, "DELETE", `/api/projects/${project.id}`, { cookie, body: { confirmation } });
  assert.equal((await del(admin.cookie, "delete project")).status, 403);
  assert.equal((await del(owner.cookie, "delete")).status, 400);
  assert.equal((await del(owner.cookie, "delete project")).status, 204);
  assert.equal((await del(owner.cookie, "delete project")).status, 404);
});
