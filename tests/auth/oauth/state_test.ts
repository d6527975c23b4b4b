// OAuth abuse and linking: replayed or mismatched state (400), a wrong PKCE verifier, explicit
// linking by a signed-in user, and linking an account that belongs to someone else (409).
import assert from "node:assert/strict";
import { resolveViewer } from "@/http/session.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { oauthTestApp, signInWith } from "@/tests/helpers/oauth.ts";
import { githubIdentity } from "@/tests/helpers/oauth_github.ts";
import { oidcIdentity } from "@/tests/helpers/oauth_oidc.ts";

/** Starts a sign-in and lets the provider answer; returns the callback URL not yet visited. */
async function untilCallback(
  browser: ReturnType<Awaited<ReturnType<typeof oauthTestApp>>["browser"]>,
  provider: string,
  query = "",
) {
  const start = await browser.get(`/api/auth/signin/${provider}${query}`);
  const authorize = await browser.get(start.location!);
  return authorize.location!;
}

async function assertValidation400(res: Response) {
  assert.equal(res.status, 400);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const body = await res.json();
  assert.equal(body.kind, "validation");
  assert.equal(typeof body.message, "string");
}

Deno.test("oauth state: a replayed callback is refused with 400, even with the old state cookie", async () => {
  await using t = await oauthTestApp();
  const browser = t.browser();
  const callback = await untilCallback(browser, "google");
  const stateCookie = browser.cookieHeader;
  const first = await browser.get(callback);
  assert.equal(first.status, 302);
  assert.equal(first.location, "http://localhost:3000/");

  // The same browser again (its state cookie was cleared) and an attacker holding the old cookie.
  await assertValidation400((await browser.get(callback)).response);
  const replay = await t.app.request(new URL(callback).pathname + new URL(callback).search, {
    headers: { Cookie: stateCookie },
  });
  await assertValidation400(replay);
  assert.equal(t.oidc.tokenRequests.length, 1, "the code is never exchanged twice");
});

Deno.test("oauth state: a callback whose state does not match this browser's cookie is refused with 400", async () => {
  await using t = await oauthTestApp();
  const victim = t.browser();
  const attacker = t.browser();
  // Login CSRF: the attacker's callback URL opened in the victim's browser.
  const attackersCallback = await untilCallback(attacker, "github");
  await untilCallback(victim, "github");
  await assertValidation400((await victim.get(attackersCallback)).response);
  // No cookie at all.
  await assertValidation400((await t.browser().get(attackersCallback)).response);
  // A state that was never issued, with a matching cookie.
  const forged = t.browser();
  forged.cookies.set("playhead_oauth", "forged");
  await assertValidation400(
    (await forged.get("/api/auth/callback/github?code=x&state=forged")).response,
  );
  assert.equal(t.github.tokenRequests.length, 0);
  assert.equal(victim.cookies.has("playhead_session"), false);
});

Deno.test("oauth state: an expired state is refused with 400", async () => {
  await using t = await oauthTestApp();
  const browser = t.browser();
  const callback = await untilCallback(browser, "github");
  await t.db.kysely.updateTable("oauth_states").set({ expires_at: new Date(Date.now() - 1000) })
    .execute();
  await assertValidation400((await browser.get(callback)).response);
});

Deno.test("oauth pkce: the providers check the verifier; a wrong one fails the sign-in", async () => {
  await using t = await oauthTestApp();
  for (const provider of ["github", "google"]) {
    const browser = t.browser();
    const callback = await untilCallback(browser, provider);
    await t.db.kysely.updateTable("oauth_states")
      .set({ code_verifier: "x".repeat(43) }).execute();
    const res = await browser.get(callback);
    assert.equal(res.location, "http://localhost:3000/signin?error=oauth_failed", provider);
    assert.equal(browser.cookies.has("playhead_session"), false);
  }
  assert.equal(t.github.tokenRequests.at(-1)?.accepted, false);
  // oauth2-mock-server refuses the mismatch before its response hook, so nothing was issued.
  assert.equal(t.oidc.tokenRequests.length, 0);
});

Deno.test("oauth link: a signed-in user links a provider whose email differs from theirs", async () => {
  await using t = await oauthTestApp();
  const { user, cookie } = await signedInUser(t, { email: "me@example.test" });
  t.github.identity = githubIdentity({
    emails: [{ email: "work@example.test", primary: true, verified: false }],
  });
  const browser = t.browser(cookie);
  const { location } = await signInWith(browser, "github", "?link=1&callbackUrl=/settings");
  assert.equal(location, "/settings");
  const accounts = await t.db.kysely.selectFrom("accounts").selectAll().execute();
  assert.deepEqual(accounts.map((a) => [a.user_id, a.provider]), [[user.id, "github"]]);
  assert.equal((await t.db.kysely.selectFrom("users").selectAll().execute()).length, 1);

  // From now on the GitHub account signs that user in.
  const later = t.browser();
  assert.equal((await signInWith(later, "github")).location, "/");
  const token = later.cookies.get("playhead_session");
  assert.equal((await resolveViewer(t.deps, `playhead_session=${token}`))?.userId, user.id);
});

Deno.test("oauth link: an account already linked to another user answers 409", async () => {
  await using t = await oauthTestApp();
  t.oidc.identity = oidcIdentity({ email: "first@example.test" });
  await signInWith(t.browser(), "google");
  const owner = await t.db.kysely.selectFrom("users").select("id").executeTakeFirstOrThrow();

  const { user, cookie } = await signedInUser(t, { email: "second@example.test" });
  const { last } = await signInWith(t.browser(cookie), "google", "?link=1");
  assert.equal(last.status, 409);
  assert.match(last.response.headers.get("content-type")!, /application\/json/);
  assert.equal((await last.response.json()).kind, "conflict");
  const accounts = await t.db.kysely.selectFrom("accounts").selectAll().execute();
  assert.deepEqual(accounts.map((a) => a.user_id), [owner.id]);
  assert.notEqual(owner.id, user.id);
});

Deno.test("oauth link: linking needs a signed-in user, and the same one at the callback", async () => {
  await using t = await oauthTestApp();
  const anonymous = await t.app.request("/api/auth/signin/github?link=1");
  assert.equal(anonymous.status, 401);
  assert.equal((await anonymous.json()).kind, "auth");

  const { cookie } = await signedInUser(t);
  const browser = t.browser(cookie);
  const callback = await untilCallback(browser, "github", "?link=1");
  browser.cookies.delete("playhead_session");
  const res = await browser.get(callback);
  assert.equal(res.status, 401);
  assert.equal((await t.db.kysely.selectFrom("accounts").selectAll().execute()).length, 0);
});
