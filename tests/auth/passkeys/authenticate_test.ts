// POST /api/auth/passkeys/authenticate/{options,verify} (docs/decisions.md "Sign-in and accounts"):
// usernameless sign-in with a registered passkey; the challenge is single use, the assertion is
// checked against the stored key, counter and user handle, and success starts a session.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { registerPasskey, startAuthentication } from "@/tests/helpers/passkeys.ts";
import { SoftAuthenticator } from "@/tests/helpers/soft_authenticator.ts";

const VERIFY = "/api/auth/passkeys/authenticate/verify";

Deno.test("passkeys: authenticate options offer discoverable credentials for APP_URL's host", async () => {
  await using t = await createTestApp({ APP_URL: "https://app.playhead.test" });
  const res = await call(t.app, "POST", "/api/auth/passkeys/authenticate/options", {
    headers: { Origin: "https://app.playhead.test" },
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const options = await res.json();
  assert.equal(options.rpId, "app.playhead.test");
  assert.equal(options.userVerification, "required");
  assert.ok(!options.allowCredentials?.length, "no allow-list: the browser offers its passkeys");
  assert.match(options.challenge, /^[\w-]{43}$/);
  const row = await t.db.kysely.selectFrom("webauthn_challenges").selectAll()
    .executeTakeFirstOrThrow();
  assert.equal(row.purpose, "authenticate");
  assert.equal(row.user_id, null);

  const cross = await call(t.app, "POST", "/api/auth/passkeys/authenticate/options", {
    headers: { Origin: "https://evil.test" },
  });
  assert.equal(cross.status, 403);
});

Deno.test("passkeys: a verified assertion signs the user in and records the counter", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const authenticator = await registerPasskey(t, user.id, cookie);
  const started = await startAuthentication(t);
  const response = await authenticator.authenticate(started.options.challenge);
  const res = await call(t.app, "POST", VERIFY, { cookie: started.cookie, body: { response } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.deepEqual(await res.json(), { redirectTo: "/" });
  const cookies = res.headers.getSetCookie();
  assert.ok(cookies.some((c) => /^playhead_webauthn=;.*Max-Age=0/.test(c)));
  const session = cookies.find((c) => c.startsWith("playhead_session="))!.split(";")[0];

  const me = await call(t.app, "GET", "/api/user", { cookie: session });
  assert.equal(me.status, 200);
  assert.equal((await me.json()).id, user.id);
  const row = await t.db.kysely.selectFrom("authenticators").select("counter")
    .executeTakeFirstOrThrow();
  assert.equal(Number(row.counter), 1);
  assert.ok(
    t.logs.some((l) => l.tag === "auth:passkey:authenticate:ok" && l.props.userId === user.id),
  );
});

Deno.test("passkeys: a replayed assertion or challenge is refused", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const authenticator = await registerPasskey(t, user.id, cookie);
  const started = await startAuthentication(t);
  const response = await authenticator.authenticate(started.options.challenge);
  const first = await call(t.app, "POST", VERIFY, { cookie: started.cookie, body: { response } });
  assert.equal(first.status, 200);
  const replay = await call(t.app, "POST", VERIFY, { cookie: started.cookie, body: { response } });
  assert.equal(replay.status, 400);
  assert.equal((await replay.json()).kind, "validation");
  assert.ok(!replay.headers.getSetCookie().some((c) => c.startsWith("playhead_session=")));

  // The same assertion under a fresh challenge cookie: its signed challenge no longer matches.
  const fresh = await startAuthentication(t);
  const res = await call(t.app, "POST", VERIFY, { cookie: fresh.cookie, body: { response } });
  assert.equal(res.status, 401);
  assert.equal((await res.json()).kind, "auth");
});

Deno.test("passkeys: authenticate verify refuses a missing, expired or registration challenge", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const authenticator = await registerPasskey(t, user.id, cookie);

  const started = await startAuthentication(t);
  const response = await authenticator.authenticate(started.options.challenge);
  const none = await call(t.app, "POST", VERIFY, { body: { response } });
  assert.equal(none.status, 400);

  const late = await startAuthentication(t);
  await t.db.kysely.updateTable("webauthn_challenges").set({ expires_at: new Date(Date.now() - 1) })
    .execute();
  const expired = await call(t.app, "POST", VERIFY, {
    cookie: late.cookie,
    body: { response: await authenticator.authenticate(late.options.challenge) },
  });
  assert.equal(expired.status, 400);

  const reg = await call(t.app, "POST", "/api/auth/passkeys/register/options", { cookie });
  const regCookie = reg.headers.getSetCookie()[0].split(";")[0];
  const mixed = await call(t.app, "POST", VERIFY, {
    cookie: regCookie,
    body: { response: await authenticator.authenticate((await reg.json()).challenge) },
  });
  assert.equal(mixed.status, 400);
});

Deno.test("passkeys: an unknown, deleted, forged or rolled-back passkey answers 401", async () => {
  await using t = await createTestApp();
  const alice = await signedInUser(t);
  const bob = await signedInUser(t);
  const attempt = async (authenticator: SoftAuthenticator, opts = {}) => {
    const started = await startAuthentication(t);
    const response = await authenticator.authenticate(started.options.challenge, opts);
    return await call(t.app, "POST", VERIFY, { cookie: started.cookie, body: { response } });
  };
  const expect401 = async (res: Response, label: string) => {
    assert.equal(res.status, 401, label);
    assert.equal((await res.json()).kind, "auth", label);
    assert.ok(!res.headers.getSetCookie().some((c) => c.startsWith("playhead_session=")), label);
  };

  const stranger = await SoftAuthenticator.create({
    rpId: "localhost",
    origin: "http://localhost:3000",
  });
  await expect401(await attempt(stranger), "never registered");

  const alices = await registerPasskey(t, alice.user.id, alice.cookie);
  await expect401(await attempt(alices, { userVerified: false }), "not user-verified");

  // A key claiming Bob's user handle for Alice's credential.
  const forged = await SoftAuthenticator.create({
    rpId: "localhost",
    origin: "http://localhost:3000",
    userHandle: bob.user.id,
  });
  Object.assign(forged, { credentialId: alices.credentialId });
  await expect401(await attempt(forged), "user handle of another user");
  await expect401(await attempt(forged, { userHandle: false }), "signed by another key");

  // A counter going backwards suggests a cloned authenticator.
  assert.equal((await attempt(alices)).status, 200);
  alices.counter = 0;
  await expect401(await attempt(alices), "counter rolled back");

  const del = await call(
    t.app,
    "DELETE",
    `/api/user/passkeys/${alices.credentialId}`,
    { cookie: alice.cookie },
  );
  assert.equal(del.status, 204);
  await expect401(await attempt(alices), "deleted");
});

Deno.test("passkeys: authenticate verify validates the body", async () => {
  await using t = await createTestApp();
  const started = await startAuthentication(t);
  const res = await call(t.app, "POST", VERIFY, {
    cookie: started.cookie,
    body: {
      response: {
        id: "abc",
        rawId: "abc",
        type: "password",
        clientExtensionResults: {},
        response: { clientDataJSON: "abc", authenticatorData: "abc" },
      },
    },
  });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.equal(body.kind, "validation");
  assert.deepEqual(body.issues.map((i: { path: string }) => i.path), [
    "response.type",
    "response.response.signature",
  ]);
});
