// OAuth sign-in (docs/decisions.md "Sign-in and accounts"), the real flow over loopback: provider A
// against a GitHub-compatible server, provider B against an OIDC issuer (oauth2-mock-server).
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { resolveViewer } from "@/http/session.ts";
import { insertUser } from "@/tests/helpers/factories.ts";
import { oauthTestApp, signInWith } from "@/tests/helpers/oauth.ts";
import { githubIdentity } from "@/tests/helpers/oauth_github.ts";
import { oidcIdentity } from "@/tests/helpers/oauth_oidc.ts";

const sessionOf = (browser: { cookies: Map<string, string> }) => {
  const token = browser.cookies.get("playhead_session");
  return token ? `playhead_session=${token}` : null;
};

Deno.test("oauth github: a new user signs in with their own workspace, back at the callback path", async () => {
  await using t = await oauthTestApp();
  t.github.identity = githubIdentity({
    name: "Ada Lovelace",
    emails: [
      { email: "old@example.test", primary: false, verified: true },
      { email: "Ada@Example.test", primary: true, verified: true },
    ],
  });
  const browser = t.browser();
  const { hops, location } = await signInWith(browser, "github", "?callbackUrl=/sessions?x=1");

  // The sign-in link goes to the provider with PKCE (S256) and a state; no nonce for OAuth 2.
  assert.equal(hops[0].status, 302);
  const authorize = new URL(hops[0].location!);
  assert.equal(authorize.origin + authorize.pathname, `${t.github.url}/login/oauth/authorize`);
  assert.equal(
    authorize.searchParams.get("redirect_uri"),
    "http://localhost:3000/api/auth/callback/github",
  );
  assert.equal(authorize.searchParams.get("code_challenge_method"), "S256");
  assert.ok(authorize.searchParams.get("state"));
  assert.equal(authorize.searchParams.get("nonce"), null);
  assert.match(
    hops[0].response.headers.get("set-cookie")!,
    /^playhead_oauth=[\w-]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600/,
  );

  assert.equal(location, "/sessions?x=1");
  const [tokenRequest] = t.github.tokenRequests;
  assert.ok(tokenRequest.accepted);
  assert.equal(
    createHash("sha256").update(tokenRequest.codeVerifier!).digest("base64url"),
    authorize.searchParams.get("code_challenge"),
  );

  const db = t.db.kysely;
  const user = await db.selectFrom("users").selectAll().executeTakeFirstOrThrow();
  assert.equal(user.email, "ada@example.test");
  assert.equal(user.name, "Ada Lovelace");
  const org = await db.selectFrom("organizations").selectAll().executeTakeFirstOrThrow();
  assert.equal(org.name, "Ada Lovelace's workspace");
  const account = await db.selectFrom("accounts").selectAll().executeTakeFirstOrThrow();
  assert.deepEqual(
    [account.user_id, account.provider, account.provider_account_id],
    [user.id, "github", String(t.github.identity.id)],
  );
  assert.deepEqual(await resolveViewer(t.deps, sessionOf(browser)), {
    userId: user.id,
    email: "ada@example.test",
    activeOrganizationId: org.id,
    role: "OWNER",
    clientAddress: null, // resolved outside a request
  });
  assert.equal(browser.cookies.has("playhead_oauth"), false, "the state cookie is cleared");
});

Deno.test("oauth google: an OIDC sign-in with a nonce creates the user; the verifier reaches the issuer", async () => {
  await using t = await oauthTestApp();
  t.oidc.identity = oidcIdentity({ email: "grace@example.test", name: "Grace Hopper" });
  const browser = t.browser();
  const { hops, location } = await signInWith(browser, "google", "?callbackUrl=/projects");

  const authorize = new URL(hops[0].location!);
  assert.equal(authorize.origin, t.oidc.issuer);
  assert.ok(authorize.searchParams.get("nonce"));
  assert.equal(authorize.searchParams.get("scope"), "openid email profile");
  assert.equal(location, "/projects");
  assert.ok(t.oidc.tokenRequests[0].code_verifier);

  const viewer = await resolveViewer(t.deps, sessionOf(browser));
  assert.equal(viewer?.email, "grace@example.test");
  assert.equal(viewer?.role, "OWNER");
  const org = await t.db.kysely.selectFrom("organizations").select("name")
    .executeTakeFirstOrThrow();
  assert.equal(org.name, "Grace Hopper's workspace");
});

Deno.test("oauth: a verified email links the provider to the existing user, without a new workspace", async () => {
  await using t = await oauthTestApp();
  const existing = await insertUser(t.db.kysely, "lin@example.test");
  t.oidc.identity = oidcIdentity({ email: "LIN@example.test", email_verified: true });
  const browser = t.browser();
  assert.equal((await signInWith(browser, "google")).location, "/");

  assert.equal((await resolveViewer(t.deps, sessionOf(browser)))?.userId, existing.id);
  const accounts = await t.db.kysely.selectFrom("accounts").selectAll().execute();
  assert.deepEqual(accounts.map((a) => [a.user_id, a.provider]), [[existing.id, "google"]]);
  assert.equal((await t.db.kysely.selectFrom("organizations").selectAll().execute()).length, 0);
  assert.equal((await t.db.kysely.selectFrom("users").selectAll().execute()).length, 1);
});

Deno.test("oauth: an unverified email neither links to the existing user nor creates one", async () => {
  await using t = await oauthTestApp();
  await insertUser(t.db.kysely, "victim@example.test");
  t.oidc.identity = oidcIdentity({ email: "victim@example.test", email_verified: false });
  const google = t.browser();
  assert.equal((await signInWith(google, "google")).location, "/signin?error=email_unverified");
  assert.equal(sessionOf(google), null);

  t.github.identity = githubIdentity({
    emails: [{ email: "nobody-yet@example.test", primary: true, verified: false }],
  });
  const github = t.browser();
  assert.equal((await signInWith(github, "github")).location, "/signin?error=email_unverified");
  assert.equal(sessionOf(github), null);

  const db = t.db.kysely;
  assert.equal((await db.selectFrom("accounts").selectAll().execute()).length, 0);
  assert.equal((await db.selectFrom("users").selectAll().execute()).length, 1);
});

Deno.test("oauth: a linked account signs its user in again even after the provider email changed", async () => {
  await using t = await oauthTestApp();
  await signInWith(t.browser(), "github");
  const first = await t.db.kysely.selectFrom("users").select("id").executeTakeFirstOrThrow();
  t.github.identity = {
    ...t.github.identity,
    emails: [{ email: "new@example.test", primary: true, verified: false }],
  };
  const again = t.browser();
  assert.equal((await signInWith(again, "github")).location, "/");
  assert.equal((await resolveViewer(t.deps, sessionOf(again)))?.userId, first.id);
  assert.equal((await t.db.kysely.selectFrom("users").selectAll().execute()).length, 1);
});

Deno.test("oauth: only same-origin relative callback paths are followed; anything else lands on /", async () => {
  await using t = await oauthTestApp();
  for (
    const foreign of ["https://evil.test/x", "//evil.test/x", "/\\evil.test", "javascript:alert(1)"]
  ) {
    const { location } = await signInWith(
      t.browser(),
      "github",
      `?callbackUrl=${encodeURIComponent(foreign)}`,
    );
    assert.equal(location, "/", foreign);
  }
});

Deno.test("oauth: the provider refusing sends the browser back to sign-in with an error", async () => {
  await using t = await oauthTestApp();
  t.github.denyWith = "access_denied";
  const browser = t.browser();
  const { location } = await signInWith(browser, "github", "?callbackUrl=/projects");
  assert.equal(location, "/signin?error=oauth_denied");
  assert.equal(sessionOf(browser), null);
  assert.equal(t.github.tokenRequests.length, 0);
});

Deno.test("oauth: unknown and unconfigured providers answer 404", async () => {
  await using t = await oauthTestApp({ AUTH_OAUTH_B_ID: "", AUTH_OAUTH_B_SECRET: "" });
  for (
    const path of [
      "/api/auth/signin/twitter",
      "/api/auth/signin/google",
      "/api/auth/callback/google?code=x&state=y",
    ]
  ) {
    const res = await t.app.request(path);
    assert.equal(res.status, 404, path);
    assert.match(res.headers.get("content-type")!, /application\/json/);
    assert.equal((await res.json()).kind, "not_found");
  }
  const methods = await (await t.app.request("/api/auth/methods")).json();
  assert.deepEqual(methods.oauth, [{ id: "github", name: "GitHub" }]);
});
