// The profile settings page: renders for a signed-in user; its forms answer 303 and change data.
import assert from "node:assert/strict";
import { signedInUser } from "./helpers/auth.ts";
import { createPagesApp, page } from "./helpers/pages.ts";
import type { TestApp } from "./helpers/app.ts";

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
