// /api/organizations/{orgId}/invites (docs/decisions.md "Organizations, members and invites",
// "Roles"): create-or-refresh, the daily limit, refresh, revoke and the invite email, read back
// from a real SMTP server on loopback.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { inviteLinkIn, mailText } from "@/tests/helpers/invite_mail.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";

const DAY_MS = 86_400_000;

async function setup(env: Record<string, string> = {}) {
  const smtp = await startTestSmtp();
  const t = await createTestApp({ APP_URL: "http://localhost:3000", ...smtp.env, ...env });
  const disposeApp = t[Symbol.asyncDispose];
  const owner = await signedInUser(t);
  await t.db.kysely.updateTable("organizations").set({ name: "Acme Labs" })
    .where("id", "=", owner.organizationId).execute();
  const url = `/api/organizations/${owner.organizationId}/invites`;
  return Object.assign(t, {
    smtp,
    owner,
    url,
    invite: (cookie: string, body: unknown) => call(t.app, "POST", url, { cookie, body }),
    [Symbol.asyncDispose]: async () => {
      await disposeApp();
      await smtp[Symbol.asyncDispose]();
    },
  });
}

const inviteRows = (t: TestApp) =>
  t.db.kysely.selectFrom("invites").selectAll().orderBy("created_at").execute();

Deno.test("invites: an ADMIN invites by email; the mail links to {APP_URL}/invites; both steps are logged", async () => {
  await using t = await setup();
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: t.owner.organizationId });
  const before = Date.now();
  const res = await t.invite(admin.cookie, { email: "  New.Person@Example.TEST ", role: "VIEWER" });
  assert.equal(res.status, 201);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const body = await res.json();
  assert.deepEqual(Object.keys(body).sort(), [
    "createdAt",
    "email",
    "emailSent",
    "expiresAt",
    "id",
    "invitedBy",
    "role",
    "status",
  ]);
  assert.equal(body.email, "new.person@example.test");
  assert.equal(body.role, "VIEWER");
  assert.equal(body.status, "PENDING");
  assert.equal(body.emailSent, true);
  assert.deepEqual(body.invitedBy, { name: "Test User", email: admin.user.email });
  const ttl = Date.parse(body.expiresAt) - before;
  assert.ok(ttl > 3 * DAY_MS - 60_000 && ttl < 3 * DAY_MS + 60_000, `ttl ${ttl}`);

  const mail = await t.smtp.next();
  assert.deepEqual(mail.to, ["new.person@example.test"]);
  assert.equal(inviteLinkIn(mail), "http://localhost:3000/invites");
  assert.match(mailText(mail), /Test User invited you to join Acme Labs on Playhead as VIEWER/);

  const ok = t.logs.find((l) => l.tag === "org:invite:create_or_refresh:ok");
  assert.equal(ok?.level, "info");
  assert.equal(ok?.props.inviteId, body.id);
  assert.equal(ok?.props.created, true);
  const sent = t.logs.find((l) => l.tag === "org:invite:email");
  assert.equal(sent?.level, "info");
  assert.equal(sent?.props.sent, true);

  const list = await call(t.app, "GET", t.url, { cookie: t.owner.cookie });
  assert.equal(list.status, 200);
  assert.equal(list.headers.get("cache-control"), "no-store");
  const { emailSent: _, ...listed } = body;
  assert.deepEqual(await list.json(), [listed]);
});

Deno.test("invites: inviting a pending email again refreshes that invite (200: role, expiry, mail) instead of adding one", async () => {
  await using t = await setup();
  const first = await (await t.invite(t.owner.cookie, { email: "a@x.test", role: "VIEWER" }))
    .json();
  await t.smtp.next();
  await t.db.kysely.updateTable("invites")
    .set({ expires_at: new Date(Date.now() + 60_000) }).execute();

  const res = await t.invite(t.owner.cookie, { email: "A@X.test", role: "ADMIN" });
  assert.equal(res.status, 200);
  const again = await res.json();
  assert.equal(again.id, first.id);
  assert.equal(again.role, "ADMIN");
  assert.ok(Date.parse(again.expiresAt) > Date.now() + 3 * DAY_MS - 60_000);
  assert.deepEqual((await t.smtp.next()).to, ["a@x.test"]);
  const rows = await inviteRows(t);
  assert.equal(rows.length, 1);
  assert.equal(rows[0].role, "ADMIN");
  const logged = t.logs.filter((l) => l.tag === "org:invite:create_or_refresh:ok");
  assert.deepEqual(logged.map((l) => l.props.created), [true, false]);
});

Deno.test("invites: concurrent invites for one email leave exactly one pending invite", async () => {
  await using t = await setup();
  const results = await Promise.all(
    Array.from(
      { length: 6 },
      () => t.invite(t.owner.cookie, { email: "race@x.test", role: "VIEWER" }),
    ),
  );
  const statuses = results.map((r) => r.status).sort();
  assert.deepEqual(statuses, [200, 200, 200, 200, 200, 201]);
  const ids = new Set(await Promise.all(results.map(async (r) => (await r.json()).id)));
  assert.equal(ids.size, 1);
  assert.equal((await inviteRows(t)).length, 1);
});

Deno.test("invites: an email that already belongs to a member answers 409 and sends nothing", async () => {
  await using t = await setup();
  await signedInUser(t, {
    role: "VIEWER",
    organizationId: t.owner.organizationId,
    email: "member@x.test",
  });
  const res = await t.invite(t.owner.cookie, { email: "MEMBER@x.test", role: "ADMIN" });
  assert.equal(res.status, 409);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal((await res.json()).kind, "conflict");
  assert.equal(t.smtp.messages.length, 0);
  assert.equal((await inviteRows(t)).length, 0);
});

Deno.test("invites: VIEWER reads but cannot invite; nobody invites an OWNER; strangers 404, anonymous 401", async () => {
  await using t = await setup();
  const orgId = t.owner.organizationId;
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: orgId });
  const stranger = await signedInUser(t);
  assert.equal((await call(t.app, "GET", t.url, { cookie: viewer.cookie })).status, 200);
  const refused = await t.invite(viewer.cookie, { email: "v@x.test", role: "VIEWER" });
  assert.equal(refused.status, 403);
  assert.equal((await refused.json()).kind, "forbidden");
  const owner = await t.invite(t.owner.cookie, { email: "o@x.test", role: "OWNER" });
  assert.equal(owner.status, 400);
  assert.equal((await owner.json()).kind, "validation");
  const badEmail = await t.invite(t.owner.cookie, { email: "not an email", role: "VIEWER" });
  assert.equal(badEmail.status, 400);
  assert.equal((await call(t.app, "GET", t.url, { cookie: stranger.cookie })).status, 404);
  const foreign = await t.invite(stranger.cookie, { email: "s@x.test", role: "VIEWER" });
  assert.equal(foreign.status, 404);
  assert.equal((await call(t.app, "GET", t.url)).status, 401);
  const crossSite = await call(t.app, "POST", t.url, {
    cookie: t.owner.cookie,
    body: { email: "c@x.test", role: "VIEWER" },
    headers: { Origin: "https://evil.test" },
  });
  assert.equal(crossSite.status, 403);
  assert.equal((await inviteRows(t)).length, 0);
});

Deno.test("invites: 50 invite emails per inviting user per UTC day, then 429 with retryAfter", async () => {
  await using t = await setup();
  await sql`INSERT INTO invite_send_counters (user_id, day, count)
    VALUES (${t.owner.user.id}, (now() AT TIME ZONE 'UTC')::date, 49)`.execute(t.db.kysely);
  assert.equal(
    (await t.invite(t.owner.cookie, { email: "50@x.test", role: "VIEWER" })).status,
    201,
  );
  const res = await t.invite(t.owner.cookie, { email: "51@x.test", role: "VIEWER" });
  assert.equal(res.status, 429);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const body = await res.json();
  assert.equal(body.kind, "rate_limited");
  assert.ok(Number.isInteger(body.retryAfter) && body.retryAfter >= 1);
  assert.ok(body.retryAfter <= 86_400);
  assert.equal(res.headers.get("retry-after"), String(body.retryAfter));
  // A refresh is an email too.
  const [row] = await inviteRows(t);
  const patch = await call(t.app, "PATCH", `${t.url}/${row.id}`, { cookie: t.owner.cookie });
  assert.equal(patch.status, 429);
  // Another inviter of the same organization has their own allowance.
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: t.owner.organizationId });
  assert.equal((await t.invite(admin.cookie, { email: "51@x.test", role: "VIEWER" })).status, 201);
  assert.equal(t.smtp.messages.length, 2);
});

Deno.test("invites: PATCH revives an expired invite (role, expiry, mail); DELETE revokes; other organizations' invites are 404", async () => {
  await using t = await setup();
  const { id } = await (await t.invite(t.owner.cookie, { email: "p@x.test", role: "VIEWER" }))
    .json();
  await t.smtp.next();
  await t.db.kysely.updateTable("invites")
    .set({ status: "EXPIRED", expires_at: new Date(Date.now() - DAY_MS) }).execute();
  const listed = await (await call(t.app, "GET", t.url, { cookie: t.owner.cookie })).json();
  assert.equal(listed[0].status, "EXPIRED");

  const res = await call(t.app, "PATCH", `${t.url}/${id}`, {
    cookie: t.owner.cookie,
    body: { role: "ADMIN" },
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.status, "PENDING");
  assert.equal(body.role, "ADMIN");
  assert.ok(Date.parse(body.expiresAt) > Date.now() + 3 * DAY_MS - 60_000);
  assert.equal(inviteLinkIn(await t.smtp.next()), "http://localhost:3000/invites");
  const bad = await call(t.app, "PATCH", `${t.url}/${id}`, {
    cookie: t.owner.cookie,
    body: { role: "OWNER" },
  });
  assert.equal(bad.status, 400);

  const other = await signedInUser(t);
  const otherUrl = `/api/organizations/${other.organizationId}/invites/${id}`;
  assert.equal((await call(t.app, "DELETE", otherUrl, { cookie: other.cookie })).status, 404);
  assert.equal((await call(t.app, "PATCH", otherUrl, { cookie: other.cookie })).status, 404);

  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: t.owner.organizationId });
  const byViewer = await call(t.app, "DELETE", `${t.url}/${id}`, { cookie: viewer.cookie });
  assert.equal(byViewer.status, 403);
  const revoked = await call(t.app, "DELETE", `${t.url}/${id}`, { cookie: t.owner.cookie });
  assert.equal(revoked.status, 204);
  assert.deepEqual(await (await call(t.app, "GET", t.url, { cookie: t.owner.cookie })).json(), []);
  const gone = await call(t.app, "DELETE", `${t.url}/${id}`, { cookie: t.owner.cookie });
  assert.equal(gone.status, 404);
  assert.equal((await gone.json()).kind, "not_found");
});

Deno.test("invites: reviving an expired invite beside a newer pending one for the same email is 409", async () => {
  await using t = await setup();
  const { id } = await (await t.invite(t.owner.cookie, { email: "twice@x.test", role: "VIEWER" }))
    .json();
  await t.db.kysely.updateTable("invites").set({ status: "EXPIRED" }).execute();
  assert.equal(
    (await t.invite(t.owner.cookie, { email: "twice@x.test", role: "VIEWER" })).status,
    201,
  );
  const res = await call(t.app, "PATCH", `${t.url}/${id}`, { cookie: t.owner.cookie });
  assert.equal(res.status, 409);
  assert.equal((await res.json()).kind, "conflict");
});

Deno.test("invites: a failed invite email is logged as a warning and the invite stands", async () => {
  await using t = await setup({ MAIL_APP_PASSWORD: "wrong-password" });
  const res = await t.invite(t.owner.cookie, { email: "f@x.test", role: "VIEWER" });
  assert.equal(res.status, 201);
  assert.equal((await res.json()).emailSent, false);
  const failed = t.logs.find((l) => l.tag === "org:invite:email");
  assert.equal(failed?.level, "warning");
  assert.equal(failed?.props.sent, false);
  assert.equal((await inviteRows(t)).length, 1);
});

Deno.test("invites: without mail, production answers 503 and development logs the link", async () => {
  const production = {
    NODE_ENV: "production",
    AUTH_SECRET: "invites-test-secret-Vd0pK3n9yQ2mX7rB4tL8",
    DATABASE_URL: "postgres://unused@127.0.0.1:1/unused",
    APP_URL: "http://localhost:3000",
    AUTH_OAUTH_A_ID: "id",
    AUTH_OAUTH_A_SECRET: "secret",
  };
  {
    await using t = await createTestApp(production);
    const owner = await signedInUser(t);
    const res = await call(t.app, "POST", `/api/organizations/${owner.organizationId}/invites`, {
      cookie: owner.cookie,
      body: { email: "p@x.test", role: "VIEWER" },
    });
    assert.equal(res.status, 503);
    assert.equal((await res.json()).kind, "unavailable");
    assert.equal((await t.db.kysely.selectFrom("invites").select("id").execute()).length, 0);
  }
  {
    await using t = await createTestApp({ NODE_ENV: "development" });
    const owner = await signedInUser(t);
    const res = await call(t.app, "POST", `/api/organizations/${owner.organizationId}/invites`, {
      cookie: owner.cookie,
      body: { email: "d@x.test", role: "VIEWER" },
    });
    assert.equal(res.status, 201);
    const dev = t.logs.find((l) => l.tag === "org:invite:dev_link");
    assert.equal(dev?.props.link, "http://localhost:3000/invites");
    assert.equal(dev?.props.email, "d@x.test");
  }
});
