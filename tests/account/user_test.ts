// /api/user and /api/avatars (docs/decisions.md "Account"), including account deletion: sole-member
// organizations go with the account, shared ones keep an owner.
import assert from "node:assert/strict";
import { createId } from "@paralleldrive/cuid2";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertOrganization, insertProject, insertUser } from "@/tests/helpers/factories.ts";

Deno.test("user: GET /api/user returns the profile with an avatar URL on APP_URL", async () => {
  await using t = await createTestApp({ APP_URL: "https://playhead.test" });
  const { user, organizationId, cookie } = await signedInUser(t);
  assert.match(cookie, /^__Host-playhead_session=/);
  await t.db.kysely.insertInto("accounts").values({
    id: createId(),
    user_id: user.id,
    provider: "github",
    provider_account_id: "42",
    email: user.email,
  }).execute();
  const res = await call(t.app, "GET", "/api/user", { cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(await res.json(), {
    id: user.id,
    name: "Test User",
    email: user.email,
    image: `https://playhead.test/api/avatars/${user.avatar_seed}.svg`,
    createdAt: user.created_at.toISOString(),
    activeOrganizationId: organizationId,
    accounts: [{ provider: "github" }],
    passkeys: [],
  });
});

Deno.test("user: every /api/user endpoint answers 401 when signed out", async () => {
  await using t = await createTestApp();
  for (
    const [method, path] of [
      ["GET", "/api/user"],
      ["PATCH", "/api/user"],
      ["DELETE", "/api/user"],
      ["POST", "/api/user/avatar"],
    ]
  ) {
    const res = await call(t.app, method, path, { body: method === "GET" ? undefined : {} });
    assert.equal(res.status, 401, `${method} ${path}`);
    assert.equal((await res.json()).kind, "auth");
  }
});

Deno.test("user: PATCH /api/user trims the name and answers the updated user", async () => {
  await using t = await createTestApp();
  const { cookie } = await signedInUser(t);
  const res = await call(t.app, "PATCH", "/api/user", { cookie, body: { name: "  Ada L.  " } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal((await res.json()).name, "Ada L.");
  for (const name of ["   ", "x".repeat(81), 42]) {
    const bad = await call(t.app, "PATCH", "/api/user", { cookie, body: { name } });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).kind, "validation");
  }
});

Deno.test("user: POST /api/user/avatar changes only the image, and the new avatar renders", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const res = await call(t.app, "POST", "/api/user/avatar", { cookie });
  assert.equal(res.status, 200);
  const { image } = await res.json();
  assert.notEqual(image, `http://localhost:3000/api/avatars/${user.avatar_seed}.svg`);
  assert.match(image, /^http:\/\/localhost:3000\/api\/avatars\/[0-9a-f-]{36}\.svg$/);
  const profile = await (await call(t.app, "GET", "/api/user", { cookie })).json();
  assert.equal(profile.image, image);
  assert.equal(profile.name, user.name);

  const svg = await t.app.request(new URL(image).pathname);
  assert.equal(svg.status, 200);
  assert.equal(svg.headers.get("content-type"), "image/svg+xml; charset=utf-8");
  assert.equal(svg.headers.get("cache-control"), "public, max-age=31536000, immutable");
  assert.match(await svg.text(), /^<svg /);
  assert.equal((await t.app.request("/api/avatars/..%2Fx.svg")).status, 404);
  assert.equal((await t.app.request("/api/avatars/abc.png")).status, 404);
});

Deno.test('user: DELETE /api/user refuses any phrase but "delete my account"', async () => {
  await using t = await createTestApp();
  const { cookie } = await signedInUser(t);
  for (const confirmation of ["delete my account ", "DELETE MY ACCOUNT", "yes"]) {
    const res = await call(t.app, "DELETE", "/api/user", { cookie, body: { confirmation } });
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type")!, /application\/json/);
    assert.equal((await res.json()).kind, "validation");
  }
  assert.equal((await call(t.app, "GET", "/api/user", { cookie })).status, 200);
});

Deno.test("user: deleting an account removes sole-member organizations, hands shared ones on and leaves others intact", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
  const member = (
    organization_id: string,
    user_id: string,
    role: "OWNER" | "ADMIN" | "VIEWER",
    minute: number,
  ) =>
    db.insertInto("memberships").values({
      id: createId(),
      organization_id,
      user_id,
      role,
      created_at: at(minute),
    }).execute();

  const { user: leaver, organizationId: solo, cookie } = await signedInUser(t);
  const soloProject = await insertProject(db, { organizationId: solo });
  const viewer = await insertUser(db);
  const admin = await insertUser(db);
  const owner = await insertUser(db);
  // Shared, leaver sole owner: an older VIEWER and a younger ADMIN; the ADMIN inherits.
  const shared = (await insertOrganization(db, "Shared")).id;
  await member(shared, leaver.id, "OWNER", 1);
  await member(shared, viewer.id, "VIEWER", 2);
  await member(shared, admin.id, "ADMIN", 3);
  // Third organization: the leaver is a plain member.
  const third = (await insertOrganization(db, "Third")).id;
  await member(third, owner.id, "OWNER", 1);
  await member(third, leaver.id, "VIEWER", 2);
  // Someone whose active-organization pointer refers to the organization that will be deleted.
  await db.updateTable("users").set({ active_organization_id: solo }).where("id", "=", viewer.id)
    .execute();

  const res = await call(t.app, "DELETE", "/api/user", {
    cookie,
    body: { confirmation: "delete my account" },
  });
  assert.equal(res.status, 204);
  assert.match(res.headers.get("set-cookie")!, /^playhead_session=; .*Max-Age=0/);

  assert.equal(
    await db.selectFrom("users").select("id").where("id", "=", leaver.id).executeTakeFirst(),
    undefined,
  );
  const orgs = (await db.selectFrom("organizations").select("id").execute()).map((o) => o.id)
    .sort();
  assert.deepEqual(orgs, [shared, third].sort());
  assert.equal(
    await db.selectFrom("projects").select("id").where("id", "=", soloProject.id)
      .executeTakeFirst(),
    undefined,
  );
  const roles = async (org: string) =>
    Object.fromEntries(
      (await db.selectFrom("memberships").select(["user_id", "role"]).where(
        "organization_id",
        "=",
        org,
      ).execute()).map((m) => [m.user_id, m.role]),
    );
  assert.deepEqual(await roles(shared), { [viewer.id]: "VIEWER", [admin.id]: "OWNER" });
  assert.deepEqual(await roles(third), { [owner.id]: "OWNER" });
  const pointer = await db.selectFrom("users").select("active_organization_id").where(
    "id",
    "=",
    viewer.id,
  ).executeTakeFirstOrThrow();
  assert.equal(pointer.active_organization_id, null);
  // The deleted user's token stops working at once.
  assert.equal((await call(t.app, "GET", "/api/user", { cookie })).status, 401);
});

Deno.test("user: a shared organization without an ADMIN goes to its oldest other member", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const { organizationId, cookie } = await signedInUser(t);
  const first = await insertUser(db);
  const second = await insertUser(db);
  for (const [i, u] of [first, second].entries()) {
    await db.insertInto("memberships").values({
      id: createId(),
      organization_id: organizationId,
      user_id: u.id,
      role: "VIEWER",
      created_at: new Date(Date.now() + (i + 1) * 60_000),
    }).execute();
  }
  const res = await call(t.app, "DELETE", "/api/user", {
    cookie,
    body: { confirmation: "delete my account" },
  });
  assert.equal(res.status, 204);
  const owners = await db.selectFrom("memberships").select("user_id").where("role", "=", "OWNER")
    .execute();
  assert.deepEqual(owners.map((o) => o.user_id), [first.id]);
});
