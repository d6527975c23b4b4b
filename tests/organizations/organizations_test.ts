// /api/organizations (docs/decisions.md "Organizations, members and invites", "Roles"): listing,
// creating, switching the active organization, renaming (ADMIN+) and deleting (OWNER).
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertOrganization, insertProject } from "@/tests/helpers/factories.ts";

Deno.test("organizations: GET lists the viewer's organizations with role, member count and the active flag", async () => {
  await using t = await createTestApp();
  const owner = await signedInUser(t);
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: owner.organizationId });
  const res = await call(t.app, "GET", "/api/organizations", { cookie: admin.cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const [org] = await res.json();
  assert.equal(org.id, owner.organizationId);
  assert.equal(org.name, "Acme");
  assert.equal(org.role, "ADMIN");
  assert.equal(org.memberCount, 2);
  assert.equal(org.active, true);
  assert.match(org.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal((await call(t.app, "GET", "/api/organizations")).status, 401);
});

Deno.test("organizations: POST creates one with the creator as OWNER; the active one stays", async () => {
  await using t = await createTestApp();
  const { organizationId, cookie } = await signedInUser(t, { role: "VIEWER" });
  const res = await call(t.app, "POST", "/api/organizations", { cookie, body: { name: " Labs " } });
  assert.equal(res.status, 201);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const created = await res.json();
  assert.equal(created.name, "Labs");
  assert.equal(created.role, "OWNER");
  assert.equal(created.memberCount, 1);
  assert.equal(created.active, false);
  const list = await (await call(t.app, "GET", "/api/organizations", { cookie })).json();
  assert.deepEqual(list.map((o: { id: string }) => o.id), [organizationId, created.id]);
  const bad = await call(t.app, "POST", "/api/organizations", { cookie, body: { name: "" } });
  assert.equal(bad.status, 400);
});

Deno.test("organizations: PATCH /active switches to an organization the viewer belongs to, else 404", async () => {
  await using t = await createTestApp();
  const { cookie } = await signedInUser(t);
  const created = await (await call(t.app, "POST", "/api/organizations", {
    cookie,
    body: { name: "Second" },
  })).json();
  const res = await call(t.app, "PATCH", "/api/organizations/active", {
    cookie,
    body: { organizationId: created.id },
  });
  assert.equal(res.status, 204);
  const user = await (await call(t.app, "GET", "/api/user", { cookie })).json();
  assert.equal(user.activeOrganizationId, created.id);

  const foreign = await insertOrganization(t.db.kysely, "Foreign");
  const refused = await call(t.app, "PATCH", "/api/organizations/active", {
    cookie,
    body: { organizationId: foreign.id },
  });
  assert.equal(refused.status, 404);
  assert.equal((await refused.json()).kind, "not_found");
});

Deno.test("organizations: ADMIN renames, VIEWER gets 403, a stranger gets 404", async () => {
  await using t = await createTestApp();
  const owner = await signedInUser(t);
  const orgId = owner.organizationId;
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: orgId });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: orgId });
  const stranger = await signedInUser(t);
  const rename = (cookie: string) =>
    call(t.app, "PATCH", `/api/organizations/${orgId}`, { cookie, body: { name: "Renamed" } });
  const ok = await rename(admin.cookie);
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).name, "Renamed");
  assert.equal((await rename(viewer.cookie)).status, 403);
  assert.equal((await rename(stranger.cookie)).status, 404);
});

Deno.test("organizations: OWNER deletes with the phrase; pointers are nulled and its projects go", async () => {
  await using t = await createTestApp();
  const owner = await signedInUser(t);
  const orgId = owner.organizationId;
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: orgId });
  const project = await insertProject(t.db.kysely, { organizationId: orgId });
  const del = (cookie: string, confirmation: string) =>
    call(t.app, "DELETE", `/api/organizations/${orgId}`, { cookie, body: { confirmation } });
  assert.equal((await del(admin.cookie, "delete organization")).status, 403);
  const wrong = await del(owner.cookie, "delete it");
  assert.equal(wrong.status, 400);
  assert.equal((await wrong.json()).kind, "validation");
  assert.equal((await del(owner.cookie, "delete organization")).status, 204);

  const db = t.db.kysely;
  assert.equal(
    await db.selectFrom("organizations").select("id").where("id", "=", orgId).executeTakeFirst(),
    undefined,
  );
  assert.equal(
    await db.selectFrom("projects").select("id").where("id", "=", project.id).executeTakeFirst(),
    undefined,
  );
  const pointers = await db.selectFrom("users").select("active_organization_id").execute();
  assert.ok(pointers.every((p) => p.active_organization_id === null));
  // Without an active organization, project operations answer 400.
  const res = await call(t.app, "GET", `/api/projects/${project.id}/key`, { cookie: admin.cookie });
  assert.equal(res.status, 400);
  assert.equal((await res.json()).kind, "validation");
});

Deno.test("organizations, projects: signed out is a 401 before the body is looked at", async () => {
  await using t = await createTestApp();
  const bad = { name: "" };
  for (const [method, path] of [["POST", "/api/organizations"], ["POST", "/api/projects"]]) {
    const res = await call(t.app, method, path, { body: bad });
    assert.equal(res.status, 401, `${method} ${path}`);
  }
});

Deno.test("organizations: the list and the member roster are never cached (no-store), errors too", async () => {
  await using t = await createTestApp();
  const { organizationId, cookie } = await signedInUser(t);
  for (const path of ["/api/organizations", `/api/organizations/${organizationId}/members`]) {
    const res = await call(t.app, "GET", path, { cookie });
    assert.equal(res.status, 200, path);
    await res.body?.cancel();
    assert.equal(res.headers.get("cache-control"), "no-store", path);
    const signedOut = await call(t.app, "GET", path);
    assert.equal(signedOut.status, 401, path);
    await signedOut.body?.cancel();
    assert.equal(signedOut.headers.get("cache-control"), "no-store", path);
  }
});
