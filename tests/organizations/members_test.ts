// /api/organizations/{orgId}/members (docs/decisions.md "Roles"): the roster,
// role changes (OWNER) and removal, never leaving an organization without an owner.
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";

async function team(t: TestApp) {
  const owner = await signedInUser(t);
  const orgId = owner.organizationId;
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: orgId });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: orgId });
  const roster = await (await call(t.app, "GET", `/api/organizations/${orgId}/members`, {
    cookie: viewer.cookie,
  })).json();
  const idOf = (userId: string) =>
    roster.find((m: { user: { id: string } }) => m.user.id === userId).id;
  return {
    orgId,
    owner,
    admin,
    viewer,
    memberId: {
      owner: idOf(owner.user.id),
      admin: idOf(admin.user.id),
      viewer: idOf(viewer.user.id),
    },
  };
}

Deno.test("members: every member sees the full roster, oldest first; a stranger gets 404", async () => {
  await using t = await createTestApp({ APP_URL: "https://p.test" });
  const owner = await signedInUser(t);
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const url = `/api/organizations/${owner.organizationId}/members`;
  const res = await call(t.app, "GET", url, { cookie: viewer.cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const roster = await res.json();
  assert.deepEqual(roster.map((m: { role: string }) => m.role), ["OWNER", "VIEWER"]);
  assert.deepEqual(Object.keys(roster[0]).sort(), ["id", "joinedAt", "role", "user"]);
  assert.deepEqual(roster[0].user, {
    id: owner.user.id,
    name: "Test User",
    email: owner.user.email,
    image: `https://p.test/api/avatars/${owner.user.avatar_seed}.svg`,
  });
  const stranger = await signedInUser(t);
  assert.equal((await call(t.app, "GET", url, { cookie: stranger.cookie })).status, 404);
});

Deno.test("members: only an OWNER changes roles", async () => {
  await using t = await createTestApp();
  const { orgId, owner, admin, memberId } = await team(t);
  const url = `/api/organizations/${orgId}/members/${memberId.viewer}`;
  const byAdmin = await call(t.app, "PATCH", url, {
    cookie: admin.cookie,
    body: { role: "ADMIN" },
  });
  assert.equal(byAdmin.status, 403);
  const res = await call(t.app, "PATCH", url, { cookie: owner.cookie, body: { role: "ADMIN" } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const body = await res.json();
  assert.equal(body.id, memberId.viewer);
  assert.equal(body.role, "ADMIN");
  const bad = await call(t.app, "PATCH", url, { cookie: owner.cookie, body: { role: "GOD" } });
  assert.equal(bad.status, 400);
});

Deno.test("members: demoting the last owner answers 409; with a second owner it works", async () => {
  await using t = await createTestApp();
  const { orgId, owner, memberId } = await team(t);
  const demote = () =>
    call(t.app, "PATCH", `/api/organizations/${orgId}/members/${memberId.owner}`, {
      cookie: owner.cookie,
      body: { role: "ADMIN" },
    });
  const refused = await demote();
  assert.equal(refused.status, 409);
  assert.equal((await refused.json()).kind, "conflict");
  await call(t.app, "PATCH", `/api/organizations/${orgId}/members/${memberId.admin}`, {
    cookie: owner.cookie,
    body: { role: "OWNER" },
  });
  assert.equal((await demote()).status, 200);
});

Deno.test("members: an OWNER removes a member, whose active pointer is cleared; others may only leave", async () => {
  await using t = await createTestApp();
  const { orgId, owner, admin, viewer, memberId } = await team(t);
  const remove = (cookie: string, id: string) =>
    call(t.app, "DELETE", `/api/organizations/${orgId}/members/${id}`, { cookie });
  assert.equal((await remove(admin.cookie, memberId.viewer)).status, 403);
  assert.equal((await remove(owner.cookie, memberId.viewer)).status, 204);
  const me = await (await call(t.app, "GET", "/api/user", { cookie: viewer.cookie })).json();
  assert.equal(me.activeOrganizationId, null);
  assert.equal((await remove(admin.cookie, memberId.admin)).status, 204); // leaving
  assert.equal((await remove(owner.cookie, "nope")).status, 404);
});

Deno.test("members: the last owner leaving hands ownership to the oldest ADMIN; the only member cannot leave", async () => {
  await using t = await createTestApp();
  const { orgId, owner, admin, memberId } = await team(t);
  const leave = await call(
    t.app,
    "DELETE",
    `/api/organizations/${orgId}/members/${memberId.owner}`,
    { cookie: owner.cookie },
  );
  assert.equal(leave.status, 204);
  const roster = await (await call(t.app, "GET", `/api/organizations/${orgId}/members`, {
    cookie: admin.cookie,
  })).json();
  assert.deepEqual(roster.map((m: { role: string }) => m.role), ["OWNER", "VIEWER"]);
  assert.equal(roster[0].id, memberId.admin);

  const solo = await signedInUser(t);
  const [only] =
    await (await call(t.app, "GET", `/api/organizations/${solo.organizationId}/members`, {
      cookie: solo.cookie,
    })).json();
  const res = await call(
    t.app,
    "DELETE",
    `/api/organizations/${solo.organizationId}/members/${only.id}`,
    { cookie: solo.cookie },
  );
  assert.equal(res.status, 409);
  assert.equal((await res.json()).kind, "conflict");
});
