// Sign-in and sign-out pages, and the redirect that sends visitors of dashboard pages to sign-in
// and back.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

const DASHBOARD_PAGES = ["/settings/profile", "/settings/organization", "/projects/p1/setup"];

Deno.test("pages: a signed-out visitor of a dashboard page is sent to sign-in with next", async () => {
  await using t = await createPagesApp();
  for (const path of DASHBOARD_PAGES) {
    const res = await page(t, `${path}?x=1`);
    assert.equal(res.status, 303, path);
    assert.equal(res.headers.get("location"), `/signin?next=${encodeURIComponent(`${path}?x=1`)}`);
  }
  const post = await page(t, "/settings/profile", { form: { intent: "rename", name: "X" } });
  assert.equal(post.status, 303);
  assert.equal(post.headers.get("location"), "/signin?next=%2Fsettings%2Fprofile");
});

Deno.test("sign-in page: email code island with next, and no OAuth without configuration", async () => {
  await using t = await createPagesApp();
  const res = await page(t, "/signin?next=%2Fsettings%2Fprofile");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "text/html; charset=utf-8");
  const html = await res.text();
  assert.match(html, /<h1>Sign in<\/h1>/);
  assert.match(html, /data-island="EmailCodeSignIn"/);
  assert.match(html, /"next":"\/settings\/profile","cooldownSeconds":60/);
  assert.match(html, /data-island="PasskeySignIn"/);
  assert.doesNotMatch(html, /Continue with/);
  assert.match(html, /<a class="button" href="\/signin">Sign in<\/a>/);
});

Deno.test("sign-in page: a foreign next falls back to the sessions list", async () => {
  await using t = await createPagesApp();
  const html = await (await page(t, "/signin?next=%2F%2Fevil.test%2Fx")).text();
  assert.match(html, /"next":"\/sessions"/);
  assert.doesNotMatch(html, /evil/);
});

Deno.test("sign-in page: configured OAuth providers link to sign-in with the callback", async () => {
  await using t = await createPagesApp({
    AUTH_OAUTH_A_ID: "a-id",
    AUTH_OAUTH_A_SECRET: "a-secret",
    AUTH_OAUTH_B_ID: "b-id",
    AUTH_OAUTH_B_SECRET: "b-secret",
  });
  const html = await (await page(t, "/signin?next=%2Finvites")).text();
  assert.match(
    html,
    /href="\/api\/auth\/signin\/github\?callbackUrl=%2Finvites">Continue with GitHub/,
  );
  assert.match(
    html,
    /href="\/api\/auth\/signin\/google\?callbackUrl=%2Finvites">Continue with Google/,
  );
});

Deno.test("sign-in page: an OAuth failure code shows its message", async () => {
  await using t = await createPagesApp();
  const html = await (await page(t, "/signin?error=account_conflict")).text();
  assert.match(html, /role="alert">That provider account is already linked to another user/);
});

Deno.test("sign-in page: a signed-in visitor goes straight to next", async () => {
  await using t = await createPagesApp();
  const { cookie } = await signedInUser(t);
  const res = await page(t, "/signin?next=%2Fsettings%2Forganization", { cookie });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/settings/organization");
});

Deno.test("layout: a signed-in viewer gets the account navigation and a sign-out form", async () => {
  await using t = await createPagesApp();
  const { cookie } = await signedInUser(t);
  const html = await (await page(t, "/settings/profile", { cookie })).text();
  assert.match(html, /<form method="post" action="\/signout"><button type="submit" class="ghost"/);
  assert.match(html, /href="\/settings\/organization" aria-current="page">Settings<\/a>/);
});

Deno.test("sign-out: clears the cookie and answers 303 to sign-in; cross-origin refused", async () => {
  await using t = await createPagesApp();
  const { cookie } = await signedInUser(t);
  const res = await page(t, "/signout", { cookie, form: {} });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/signin");
  assert.match(res.headers.get("set-cookie") ?? "", /^playhead_session=;.*Max-Age=0/i);
  const foreign = await page(t, "/signout", { cookie, form: {}, origin: "https://evil.test" });
  assert.equal(foreign.status, 403);
});

Deno.test("pages: a cross-origin form post to a dashboard page is refused", async () => {
  await using t = await createPagesApp();
  const { cookie, user } = await signedInUser(t);
  const res = await page(t, "/settings/profile", {
    cookie,
    form: { intent: "rename", name: "Mallory" },
    origin: "https://evil.test",
  });
  assert.equal(res.status, 403);
  const row = await t.db.kysely.selectFrom("users").select("name").where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  assert.equal(row.name, "Test User");
});
