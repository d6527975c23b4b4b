// /api/user/invites (docs/decisions.md "Organizations, members and invites"): the invited user's
// pending invites, accept and decline, and the abuse cases: another email (403), expired (410),
// member (409), answered twice.
import assert from "node:assert/strict";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, cookieFor, signedInUser } from "@/tests/helpers/auth.ts";
import { insertUser } from "@/tests/helpers/factories.ts";
import { inviteLinkIn } from "@/tests/helpers/invite_mail.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";

/** An organization "Acme Labs" whose OWNER invites `email` as `role`; returns the invite id. */
async function invited(t: TestApp, email: string, role: "ADMIN" | "VIEWER" = "VIEWER") {
  const owner = await signedInUser(t);
  await t.db.kysely.updateTable("organizations").set({ name: "Acme Labs" })
    .where("id", "=", owner.organizationId).execute();
  const res = await call(t.app, "POST", `/api/organizations/${owner.organizationId}/invites`, {
    cookie: owner.cookie,
    body: { email, role },
  });
  assert.equal(res.status, 201);
  return { owner, inviteId: (await res.json()).id as string };
}

/** A signed-in user with no organization at all. */
async function homeless(t: TestApp, email: string) {
  const user = await insertUser(t.db.kysely, email);
  return { user, cookie: await cookieFor(t, user.id) };
}

const answer = (t: TestApp, cookie: string, id: string, action: "accept" | "decline") =>
  call(t.app, "POST", `/api/user/invites/${id}/${action}`, { cookie });

Deno.test("user invites: the invited user reads the mail, sees the invite and accepts it: member, ACCEPTED, made active", async () => {
  const smtp = await startTestSmtp();
  try {
    await using t = await createTestApp(smtp.env);
    const { owner, inviteId } = await invited(t, "Guest@X.test", "ADMIN");
    const mail = await smtp.next();
    assert.deepEqual(mail.to, ["guest@x.test"]);
    assert.equal(inviteLinkIn(mail), "http://localhost:3000/invites");

    const guest = await homeless(t, "guest@x.test");
    const list = await call(t.app, "GET", "/api/user/invites", { cookie: guest.cookie });
    assert.equal(list.status, 200);
    assert.match(list.headers.get("content-type")!, /application\/json/);
    assert.equal(list.headers.get("cache-control"), "no-store");
    const [item, ...rest] = await list.json();
    assert.equal(rest.length, 0);
    assert.equal(item.id, inviteId);
    assert.equal(item.role, "ADMIN");
    assert.equal(item.status, "PENDING");
    assert.deepEqual(item.organization, { id: owner.organizationId, name: "Acme Labs" });
    assert.deepEqual(item.invitedBy, { name: "Test User", email: owner.user.email });

    const res = await answer(t, guest.cookie, inviteId, "accept");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type")!, /application\/json/);
    const accepted = await res.json();
    assert.equal(accepted.status, "ACCEPTED");
    assert.equal(accepted.organization.id, owner.organizationId);

    const me = await (await call(t.app, "GET", "/api/user", { cookie: guest.cookie })).json();
    assert.equal(me.activeOrganizationId, owner.organizationId);
    const orgs = await (await call(t.app, "GET", "/api/organizations", { cookie: guest.cookie }))
      .json();
    assert.deepEqual(orgs.map((o: { id: string; role: string }) => [o.id, o.role]), [
      [owner.organizationId, "ADMIN"],
    ]);
    const after = await call(t.app, "GET", "/api/user/invites", { cookie: guest.cookie });
    assert.deepEqual(await after.json(), []);
    const again = await answer(t, guest.cookie, inviteId, "accept");
    assert.equal(again.status, 409);
    assert.equal((await again.json()).kind, "conflict");
  } finally {
    await smtp[Symbol.asyncDispose]();
  }
});

Deno.test("user invites: accepting keeps an active organization the user already has", async () => {
  await using t = await createTestApp();
  const { owner, inviteId } = await invited(t, "busy@x.test");
  const busy = await signedInUser(t, { email: "busy@x.test" });
  assert.equal((await answer(t, busy.cookie, inviteId, "accept")).status, 200);
  const me = await (await call(t.app, "GET", "/api/user", { cookie: busy.cookie })).json();
  assert.equal(me.activeOrganizationId, busy.organizationId);
  const role = await t.db.kysely.selectFrom("memberships").select("role")
    .where("organization_id", "=", owner.organizationId).where("user_id", "=", busy.user.id)
    .executeTakeFirstOrThrow();
  assert.equal(role.role, "VIEWER");
});

Deno.test("user invites: declining marks the invite DECLINED and joins nothing", async () => {
  await using t = await createTestApp();
  const { owner, inviteId } = await invited(t, "no@x.test");
  const guest = await homeless(t, "no@x.test");
  const res = await answer(t, guest.cookie, inviteId, "decline");
  assert.equal(res.status, 200);
  assert.equal((await res.json()).status, "DECLINED");
  const row = await t.db.kysely.selectFrom("invites").select("status")
    .where("id", "=", inviteId).executeTakeFirstOrThrow();
  assert.equal(row.status, "DECLINED");
  const members = await t.db.kysely.selectFrom("memberships").select("user_id")
    .where("organization_id", "=", owner.organizationId).execute();
  assert.deepEqual(members.map((m) => m.user_id), [owner.user.id]);
  assert.equal((await answer(t, guest.cookie, inviteId, "accept")).status, 409);
});

Deno.test("user invites: an invite addressed to another email answers 403 and stays pending", async () => {
  await using t = await createTestApp();
  const { inviteId } = await invited(t, "victim@x.test");
  const intruder = await homeless(t, "intruder@x.test");
  for (const action of ["accept", "decline"] as const) {
    const res = await answer(t, intruder.cookie, inviteId, action);
    assert.equal(res.status, 403);
    assert.match(res.headers.get("content-type")!, /application\/json/);
    const body = await res.json();
    assert.equal(body.kind, "forbidden");
    assert.equal(typeof body.message, "string");
  }
  const listed = await call(t.app, "GET", "/api/user/invites", { cookie: intruder.cookie });
  assert.deepEqual(await listed.json(), []);
  const row = await t.db.kysely.selectFrom("invites").select("status")
    .where("id", "=", inviteId).executeTakeFirstOrThrow();
  assert.equal(row.status, "PENDING");
  const memberships = await t.db.kysely.selectFrom("memberships").select("id")
    .where("user_id", "=", intruder.user.id).execute();
  assert.equal(memberships.length, 0);
});

Deno.test("user invites: an expired invite answers 410 gone and the row becomes EXPIRED", async () => {
  await using t = await createTestApp();
  const { owner, inviteId } = await invited(t, "late@x.test");
  await t.db.kysely.updateTable("invites").set({ expires_at: new Date(Date.now() - 1000) })
    .where("id", "=", inviteId).execute();
  const late = await homeless(t, "late@x.test");
  const listed = await call(t.app, "GET", "/api/user/invites", { cookie: late.cookie });
  assert.deepEqual(await listed.json(), []);
  for (const action of ["accept", "decline"] as const) {
    const res = await answer(t, late.cookie, inviteId, action);
    assert.equal(res.status, 410);
    assert.match(res.headers.get("content-type")!, /application\/json/);
    assert.equal((await res.json()).kind, "gone");
  }
  const row = await t.db.kysely.selectFrom("invites").select("status")
    .where("id", "=", inviteId).executeTakeFirstOrThrow();
  assert.equal(row.status, "EXPIRED");
  const members = await t.db.kysely.selectFrom("memberships").select("id")
    .where("organization_id", "=", owner.organizationId).execute();
  assert.equal(members.length, 1);
});

Deno.test("user invites: a user who is already a member gets 409; unknown invites 404; anonymous 401", async () => {
  await using t = await createTestApp();
  const { owner, inviteId } = await invited(t, "dup@x.test");
  const dup = await signedInUser(t, {
    email: "dup@x.test",
    role: "VIEWER",
    organizationId: owner.organizationId,
  });
  const res = await answer(t, dup.cookie, inviteId, "accept");
  assert.equal(res.status, 409);
  assert.equal((await res.json()).kind, "conflict");
  const missing = await answer(t, dup.cookie, "no-such-invite", "accept");
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).kind, "not_found");
  assert.equal((await call(t.app, "GET", "/api/user/invites")).status, 401);
  assert.equal((await call(t.app, "POST", `/api/user/invites/${inviteId}/accept`)).status, 401);
  const crossSite = await call(t.app, "POST", `/api/user/invites/${inviteId}/decline`, {
    cookie: dup.cookie,
    headers: { Origin: "https://evil.test" },
  });
  assert.equal(crossSite.status, 403);
});

Deno.test("user invites: two concurrent accepts make one membership; the other answers 409", async () => {
  await using t = await createTestApp();
  const { owner, inviteId } = await invited(t, "twice@x.test");
  const guest = await homeless(t, "twice@x.test");
  const results = await Promise.all([
    answer(t, guest.cookie, inviteId, "accept"),
    answer(t, guest.cookie, inviteId, "accept"),
  ]);
  assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
  const members = await t.db.kysely.selectFrom("memberships").select("id")
    .where("organization_id", "=", owner.organizationId).where("user_id", "=", guest.user.id)
    .execute();
  assert.equal(members.length, 1);
});
