// The user's invites page: pending invites with accept (joins, switches, 303) and decline.
import assert from "node:assert/strict";
import { createId } from "@paralleldrive/cuid2";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertOrganization } from "@/tests/helpers/factories.ts";
import { createPagesApp, page, type PagesApp } from "@/tests/helpers/pages.ts";

async function inviteTo(t: PagesApp, email: string, expiresInMs = 86_400_000) {
  const org = await insertOrganization(t.db.kysely, "Globex");
  const invite = await t.db.kysely.insertInto("invites").values({
    id: createId(),
    organization_id: org.id,
    email,
    role: "ADMIN",
    invited_by_id: null,
    expires_at: new Date(Date.now() + expiresInMs),
  }).returningAll().executeTakeFirstOrThrow();
  return { org, invite };
}

Deno.test("invites page: lists the viewer's pending invites with accept and decline", async () => {
  await using t = await createPagesApp();
  const { cookie } = await signedInUser(t, { email: "ada@example.test" });
  await inviteTo(t, "ada@example.test");
  await inviteTo(t, "someone-else@example.test");
  const res = await page(t, "/invites", { cookie });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await res.text();
  assert.equal(html.match(/data-invite="Globex"/g)?.length, 1);
  assert.match(html, /<strong>Globex<\/strong> invites you as <span class="badge">ADMIN<\/span>/);
  assert.match(html, /value="accept">Accept Globex</);
  assert.match(html, /value="decline"/);
});

Deno.test("invites page: none pending says so", async () => {
  await using t = await createPagesApp();
  const { cookie } = await signedInUser(t);
  assert.match(await (await page(t, "/invites", { cookie })).text(), /no pending invites/);
});

Deno.test("invites page: accepting joins the organization and lands in it", async () => {
  await using t = await createPagesApp();
  const { cookie, user } = await signedInUser(t, { email: "ada@example.test" });
  const { org, invite } = await inviteTo(t, "ada@example.test");
  const res = await page(t, "/invites", {
    cookie,
    form: { intent: "accept", inviteId: invite.id },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/settings/organization?done=joined");
  const membership = await t.db.kysely.selectFrom("memberships").selectAll()
    .where("organization_id", "=", org.id).where("user_id", "=", user.id).executeTakeFirst();
  assert.equal(membership?.role, "ADMIN");
  const html = await (await page(t, "/settings/organization?done=joined", { cookie })).text();
  assert.match(html, /<h1>Globex<\/h1>/);
  assert.match(html, /You joined the organization\./);
});

Deno.test("invites page: declining answers 303; an expired invite re-renders with 410", async () => {
  await using t = await createPagesApp();
  const { cookie } = await signedInUser(t, { email: "ada@example.test" });
  const { invite } = await inviteTo(t, "ada@example.test");
  const res = await page(t, "/invites", {
    cookie,
    form: { intent: "decline", inviteId: invite.id },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/invites?done=declined");
  const row = await t.db.kysely.selectFrom("invites").select("status").where("id", "=", invite.id)
    .executeTakeFirstOrThrow();
  assert.equal(row.status, "DECLINED");

  const { invite: old } = await inviteTo(t, "ada@example.test", -1000);
  const expired = await page(t, "/invites", {
    cookie,
    form: { intent: "accept", inviteId: old.id },
  });
  assert.equal(expired.status, 410);
  assert.match(await expired.text(), /role="alert">this invite has expired/);
});

Deno.test("invites: invited and signing in for the first time, one sees the invite and works in the inviting organization once accepted", async () => {
  await using t = await createPagesApp();
  const { org, invite } = await inviteTo(t, "grace@example.test");
  const email = "Grace@Example.test";
  assert.equal((await call(t.app, "POST", "/api/auth/otp/send", { body: { email } })).status, 204);
  const code = t.logs.find((l) => l.tag === "auth:otp:dev_code")?.props.code as string;
  const verify = await call(t.app, "POST", "/api/auth/otp/verify", { body: { email, code } });
  assert.equal(verify.status, 200);
  const cookie = verify.headers.get("set-cookie")!.split(";")[0];

  // No empty workspace of their own: the landing is the invite.
  assert.equal(
    await t.db.kysely.selectFrom("organizations").select("id").execute().then((r) => r.length),
    1,
  );
  const landing = await page(t, "/sessions", { cookie });
  assert.equal(landing.status, 303);
  assert.equal(landing.headers.get("location"), "/invites");
  // Every other page says an invite waits.
  const home = await (await page(t, "/settings/profile", { cookie })).text();
  assert.match(home, /data-testid="invites-waiting"/);
  assert.match(home, /Globex<\/bdi><\/strong> invites you to join as admin\./);
  assert.doesNotMatch(await (await page(t, "/invites", { cookie })).text(), /invites-waiting/);

  const accepted = await page(t, "/invites", {
    cookie,
    form: { intent: "accept", inviteId: invite.id },
  });
  assert.equal(accepted.status, 303);
  const sessions = await page(t, "/sessions", { cookie });
  assert.equal(sessions.status, 200);
  const html = await sessions.text();
  assert.doesNotMatch(html, /invites-waiting|no-organization/);
  const user = await t.db.kysely.selectFrom("users").select("active_organization_id")
    .where("email", "=", email.toLowerCase()).executeTakeFirstOrThrow();
  assert.equal(user.active_organization_id, org.id);
});

Deno.test("invites: a first sign-in with no invite waiting starts in a workspace of its own", async () => {
  await using t = await createPagesApp();
  await inviteTo(t, "someone-else@example.test");
  const email = "lin@example.test";
  assert.equal((await call(t.app, "POST", "/api/auth/otp/send", { body: { email } })).status, 204);
  const code = t.logs.find((l) => l.tag === "auth:otp:dev_code")?.props.code as string;
  const verify = await call(t.app, "POST", "/api/auth/otp/verify", { body: { email, code } });
  const cookie = verify.headers.get("set-cookie")!.split(";")[0];
  const landing = await page(t, "/sessions", { cookie });
  assert.equal(landing.status, 200);
  assert.doesNotMatch(await landing.text(), /invites-waiting/);
  const names = await t.db.kysely.selectFrom("organizations").select("name").execute();
  assert.ok(names.some((o) => o.name === "lin's workspace"));
});
