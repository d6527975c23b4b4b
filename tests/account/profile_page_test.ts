// The profile settings page: renders for a signed-in user; its forms answer 303 and change data.
import assert from "node:assert/strict";
import { APP_ORIGIN, signedInUser } from "@/tests/helpers/auth.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";
import type { TestApp } from "@/tests/helpers/app.ts";

async function userRow(t: TestApp, id: string) {
  return await t.db.kysely.selectFrom("users").selectAll().where("id", "=", id)
    .executeTakeFirst();
}

Deno.test("profile page: shows name, avatar, linked accounts, passkeys and account deletion", async () => {
  await using t = await createPagesApp();
  const { cookie, user } = await signedInUser(t);
  const res = await page(t, "/settings/profile", { cookie });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await res.text();
  assert.match(html, /<title>Profile · Playhead<\/title>/);
  assert.match(html, /<input id="profile-name" name="name" value="Test User"/);
  assert.ok(html.includes(`Signed in as ${user.email}`));
  assert.ok(html.includes(`/api/avatars/${user.avatar_seed}.svg`));
  assert.match(html, /<h2 id="accounts-heading">Linked accounts<\/h2>/);
  assert.match(html, /You have no passkeys/);
  assert.match(html, /data-island="PasskeyButton"/);
  assert.match(html, /name="intent" value="delete-account"/);
  assert.match(html, /Type <strong>delete my account<\/strong> to confirm/);
});

Deno.test("profile page: renaming answers 303 with a notice and saves the name", async () => {
  await using t = await createPagesApp();
  const { cookie, user } = await signedInUser(t);
  const res = await page(t, "/settings/profile", {
    cookie,
    form: { intent: "rename", name: "  Ada Lovelace " },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/settings/profile?done=renamed");
  assert.equal((await userRow(t, user.id))?.name, "Ada Lovelace");
  const html = await (await page(t, "/settings/profile?done=renamed", { cookie })).text();
  assert.match(html, /role="status">Your name is saved\./);
});

Deno.test("profile page: an empty name re-renders with the error and changes nothing", async () => {
  await using t = await createPagesApp();
  const { cookie, user } = await signedInUser(t);
  const res = await page(t, "/settings/profile", { cookie, form: { intent: "rename", name: " " } });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /role="alert">name: /);
  assert.equal((await userRow(t, user.id))?.name, "Test User");
});

Deno.test("profile page: regenerating the avatar changes its seed", async () => {
  await using t = await createPagesApp();
  const { cookie, user } = await signedInUser(t);
  const res = await page(t, "/settings/profile", { cookie, form: { intent: "avatar" } });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/settings/profile?done=avatar");
  assert.notEqual((await userRow(t, user.id))?.avatar_seed, user.avatar_seed);
});

Deno.test("profile page: account deletion needs the exact phrase, then signs out", async () => {
  await using t = await createPagesApp();
  const { cookie, user } = await signedInUser(t);
  const wrong = await page(t, "/settings/profile", {
    cookie,
    form: { intent: "delete-account", confirmation: "delete my acount" },
  });
  assert.equal(wrong.status, 400);
  assert.match(await wrong.text(), /must be exactly &quot;delete my account&quot;/);
  assert.ok(await userRow(t, user.id));

  const res = await page(t, "/settings/profile", {
    cookie,
    form: { intent: "delete-account", confirmation: "delete my account" },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/signin");
  assert.match(res.headers.get("set-cookie") ?? "", /Max-Age=0/i);
  assert.equal(await userRow(t, user.id), undefined);
  // The old cookie no longer signs anyone in.
  assert.equal((await page(t, "/settings/profile", { cookie })).status, 303);
});

async function linkAccount(t: TestApp, userId: string, provider: string) {
  await t.db.kysely.insertInto("accounts").values({
    id: crypto.randomUUID(),
    user_id: userId,
    provider,
    provider_account_id: `${provider}-${userId}`,
    email: null,
  }).execute();
}

Deno.test("profile page: linked accounts unlink, but never the last way to sign in", async () => {
  await using t = await createPagesApp({
    AUTH_OAUTH_A_ID: "a-id",
    AUTH_OAUTH_A_SECRET: "a-secret",
    AUTH_OAUTH_B_ID: "b-id",
    AUTH_OAUTH_B_SECRET: "b-secret",
  });
  const { cookie, user } = await signedInUser(t);
  await linkAccount(t, user.id, "github");
  let html = await (await page(t, "/settings/profile", { cookie })).text();
  assert.match(html, /value="unlink">Unlink GitHub</);
  assert.match(
    html,
    /href="\/api\/auth\/signin\/google\?link=1&amp;callbackUrl=%2Fsettings%2Fprofile">Link Google/,
  );

  const last = await page(t, "/settings/profile", {
    cookie,
    form: { intent: "unlink", provider: "github" },
  });
  assert.equal(last.status, 409);
  assert.match(await last.text(), /role="alert">this is your last way to sign in/);

  await linkAccount(t, user.id, "google");
  const res = await page(t, "/settings/profile", {
    cookie,
    form: { intent: "unlink", provider: "github" },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/settings/profile?done=unlinked");
  html = await (await page(t, "/settings/profile", { cookie })).text();
  assert.match(html, /Link GitHub/);
  assert.match(html, /Unlink Google/);
});

Deno.test("profile page: passkeys are renamed and deleted", async () => {
  await using t = await createPagesApp();
  const { cookie, user } = await signedInUser(t);
  const db = t.db.kysely;
  await db.insertInto("authenticators").values({
    credential_id: "cred-1",
    user_id: user.id,
    public_key: new Uint8Array([1, 2, 3]),
    credential_device_type: "multiDevice",
    name: "Laptop",
  }).execute();
  assert.match(await (await page(t, "/settings/profile", { cookie })).text(), /value="Laptop"/);

  const renamed = await page(t, "/settings/profile", {
    cookie,
    form: { intent: "rename-passkey", credentialId: "cred-1", name: " Work laptop " },
  });
  assert.equal(renamed.status, 303);
  const row = () =>
    db.selectFrom("authenticators").select("name").where("credential_id", "=", "cred-1")
      .executeTakeFirst();
  assert.equal((await row())?.name, "Work laptop");

  const deleted = await page(t, "/settings/profile", {
    cookie,
    form: { intent: "delete-passkey", credentialId: "cred-1" },
  });
  assert.equal(deleted.status, 303);
  assert.equal(await row(), undefined);
});

Deno.test("profile page: a form post whose body stalls is answered 408 with Connection: close, nothing changed", async () => {
  await using t = await createPagesApp({ HTTP_BODY_TIMEOUT_MS: "300" });
  const { cookie, user } = await signedInUser(t);
  // Half a form, then nothing: the stream stays open like a client that stopped sending.
  const stalled = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(new TextEncoder().encode("intent=rename&name=Sl")),
  });
  const res = await t.app.request("/settings/profile", {
    method: "POST",
    headers: {
      cookie,
      origin: APP_ORIGIN,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: stalled,
  });
  assert.equal(res.status, 408);
  assert.equal(res.headers.get("connection"), "close");
  assert.match(await res.text(), /did not arrive in time/);
  assert.equal((await userRow(t, user.id))?.name, "Test User");
});
