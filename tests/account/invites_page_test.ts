// The user's invites page: pending invites with accept (joins, switches, 303) and decline.
import assert from "node:assert/strict";
import { createId } from "@paralleldrive/cuid2";
import { signedInUser } from "@/tests/helpers/auth.ts";
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
