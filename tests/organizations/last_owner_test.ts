// An organization never loses its last OWNER, even when its two
// owners demote or remove each other at the same moment, and an ADMIN cannot remove an owner.
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";

async function twoOwners(t: TestApp) {
  const a = await signedInUser(t);
  const orgId = a.organizationId;
  const b = await signedInUser(t, { role: "OWNER", organizationId: orgId });
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: orgId });
  const roster = await (await call(t.app, "GET", `/api/organizations/${orgId}/members`, {
    cookie: a.cookie,
  })).json();
  const idOf = (userId: string) =>
    roster.find((m: { user: { id: string } }) => m.user.id === userId).id as string;
  return { orgId, a, b, admin, aId: idOf(a.user.id), bId: idOf(b.user.id) };
}

const owners = async (t: TestApp, orgId: string) =>
  (await t.db.kysely.selectFrom("memberships").select("user_id")
    .where("organization_id", "=", orgId).where("role", "=", "OWNER").execute()).length;

Deno.test("last owner: two owners demoting each other at once leave exactly one owner", async () => {
  await using t = await createTestApp();
  const { orgId, a, b, aId, bId } = await twoOwners(t);
  const demote = (cookie: string, memberId: string) =>
    call(t.app, "PATCH", `/api/organizations/${orgId}/members/${memberId}`, {
      cookie,
      body: { role: "VIEWER" },
    });
  const results = await Promise.all([demote(a.cookie, bId), demote(b.cookie, aId)]);
  // The loser is refused either by the role check (already demoted: 403) or under the roster
  // lock (last owner: 409), depending on how the two interleave.
  const [won, lost] = results.map((r) => r.status).sort();
  assert.equal(won, 200);
  assert.ok(lost === 403 || lost === 409, `status ${lost}`);
  assert.equal(await owners(t, orgId), 1);
});

Deno.test("last owner: an ADMIN cannot remove an owner (403); the owner demoting itself as last owner is 409", async () => {
  await using t = await createTestApp();
  const { orgId, a, admin, aId, bId } = await twoOwners(t);
  const remove = (cookie: string, memberId: string) =>
    call(t.app, "DELETE", `/api/organizations/${orgId}/members/${memberId}`, { cookie });
  const byAdmin = await remove(admin.cookie, aId);
  assert.equal(byAdmin.status, 403);
  assert.equal((await byAdmin.json()).kind, "forbidden");
  assert.equal((await remove(a.cookie, bId)).status, 204);
  const self = await call(t.app, "PATCH", `/api/organizations/${orgId}/members/${aId}`, {
    cookie: a.cookie,
    body: { role: "ADMIN" },
  });
  assert.equal(self.status, 409);
  assert.equal((await self.json()).kind, "conflict");
  assert.equal(await owners(t, orgId), 1);
});
