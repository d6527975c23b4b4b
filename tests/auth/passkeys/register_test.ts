// POST /api/auth/passkeys/register/{options,verify} (docs/decisions.md "Sign-in and accounts"):
// signed in only, same origin only, a server-kept single-use challenge bound to the user, and the
// attestation checked against APP_URL's RP ID and origin.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import {
  registerPasskey,
  softAuthenticator,
  startAuthentication,
  startRegistration,
} from "@/tests/helpers/passkeys.ts";
import { SoftAuthenticator } from "@/tests/helpers/soft_authenticator.ts";

const OPTIONS = "/api/auth/passkeys/register/options";
const VERIFY = "/api/auth/passkeys/register/verify";
const MAC_UA = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Safari/605";

Deno.test("passkeys: register answers 401 when signed out and 403 from another origin", async () => {
  await using t = await createTestApp();
  for (const path of [OPTIONS, VERIFY]) {
    const res = await call(t.app, "POST", path, { body: {} });
    assert.equal(res.status, 401, path);
    assert.equal((await res.json()).kind, "auth");
  }
  const { cookie } = await signedInUser(t);
  const res = await call(t.app, "POST", OPTIONS, {
    cookie,
    headers: { Origin: "https://evil.test" },
  });
  assert.equal(res.status, 403);
  assert.equal((await res.json()).kind, "forbidden");
});

Deno.test("passkeys: register options name the user and the RP, and set a challenge cookie", async () => {
  await using t = await createTestApp({ APP_URL: "https://playhead.test/" });
  const { user, cookie } = await signedInUser(t);
  const res = await call(t.app, "POST", OPTIONS, {
    cookie,
    headers: { Origin: "https://playhead.test" },
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const set = res.headers.getSetCookie().find((c) => c.startsWith("playhead_webauthn="))!;
  assert.match(
    set,
    /^playhead_webauthn=[\w-]{43}; Path=\/api\/auth\/passkeys; HttpOnly; SameSite=Strict; Max-Age=300; Secure$/,
  );
  const options = await res.json();
  assert.deepEqual(options.rp, { name: "Playhead", id: "playhead.test" });
  assert.equal(options.user.name, user.email);
  assert.equal(options.user.displayName, "Test User");
  assert.equal(
    options.user.id,
    new TextEncoder().encode(user.id).toBase64({ alphabet: "base64url", omitPadding: true }),
  );
  assert.equal(options.authenticatorSelection.residentKey, "required");
  assert.equal(options.authenticatorSelection.userVerification, "required");
  assert.deepEqual(options.excludeCredentials, []);
  const row = await t.db.kysely.selectFrom("webauthn_challenges").selectAll()
    .executeTakeFirstOrThrow();
  assert.equal(row.challenge, options.challenge);
  assert.equal(row.user_id, user.id);
  assert.equal(row.purpose, "register");
});

Deno.test("passkeys: a verified registration is stored with a default name and listed", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const authenticator = await softAuthenticator(user.id);
  const started = await startRegistration(t, cookie);
  const response = await authenticator.register(started.options.challenge);
  const res = await call(t.app, "POST", VERIFY, {
    cookie: started.cookie,
    headers: { "User-Agent": MAC_UA },
    body: { response },
  });
  assert.equal(res.status, 201);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.ok(res.headers.getSetCookie().some((c) => /^playhead_webauthn=;.*Max-Age=0/.test(c)));
  const passkey = await res.json();
  assert.deepEqual(Object.keys(passkey).sort(), [
    "createdAt",
    "credentialDeviceType",
    "credentialID",
    "name",
  ]);
  assert.equal(passkey.credentialID, authenticator.credentialId);
  assert.equal(passkey.name, "Passkey on Mac");
  assert.equal(passkey.credentialDeviceType, "singleDevice");

  const profile = await (await call(t.app, "GET", "/api/user", { cookie })).json();
  assert.deepEqual(profile.passkeys, [passkey]);
  const row = await t.db.kysely.selectFrom("authenticators").selectAll()
    .executeTakeFirstOrThrow();
  assert.equal(row.user_id, user.id);
  assert.deepEqual(row.transports, ["internal"]);

  // Without a recognised User-Agent the default is a number; a given name is kept.
  await registerPasskey(t, user.id, cookie);
  await registerPasskey(t, user.id, cookie, "Work laptop");
  const names = (await (await call(t.app, "GET", "/api/user/passkeys", { cookie })).json())
    .map((p: { name: string }) => p.name);
  assert.deepEqual(names.sort(), ["Passkey 2", "Passkey on Mac", "Work laptop"]);
  const next = await startRegistration(t, cookie);
  assert.equal(next.options.excludeCredentials.length, 3);
});

Deno.test("passkeys: a registration challenge is single use", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const authenticator = await softAuthenticator(user.id);
  const started = await startRegistration(t, cookie);
  const response = await authenticator.register(started.options.challenge);
  const first = await call(t.app, "POST", VERIFY, { cookie: started.cookie, body: { response } });
  assert.equal(first.status, 201);
  const again = await call(t.app, "POST", VERIFY, { cookie: started.cookie, body: { response } });
  assert.equal(again.status, 400);
  const body = await again.json();
  assert.equal(body.kind, "validation");
  assert.deepEqual(body.issues.map((i: { path: string }) => i.path), ["challenge"]);
  assert.equal(
    (await t.db.kysely.selectFrom("webauthn_challenges").selectAll().execute()).length,
    0,
  );
});

Deno.test("passkeys: register verify refuses a missing, expired, foreign or wrong-kind challenge", async () => {
  await using t = await createTestApp();
  const alice = await signedInUser(t);
  const bob = await signedInUser(t);
  const authenticator = await softAuthenticator(alice.user.id);
  const verify = async (cookie: string, challenge: string) =>
    await call(t.app, "POST", VERIFY, {
      cookie,
      body: { response: await authenticator.register(challenge) },
    });

  // No challenge cookie at all.
  const started = await startRegistration(t, alice.cookie);
  assert.equal((await verify(alice.cookie, started.options.challenge)).status, 400);

  // Alice's challenge cookie presented by Bob: refused, and the challenge is burnt for Alice too.
  const challengeCookie = started.cookie.split("; ")[1];
  const stolen = await verify(`${bob.cookie}; ${challengeCookie}`, started.options.challenge);
  assert.equal(stolen.status, 400);
  assert.equal((await verify(started.cookie, started.options.challenge)).status, 400);

  // Expired.
  const late = await startRegistration(t, alice.cookie);
  await t.db.kysely.updateTable("webauthn_challenges").set({ expires_at: new Date(Date.now() - 1) })
    .execute();
  assert.equal((await verify(late.cookie, late.options.challenge)).status, 400);

  // A sign-in challenge cannot complete a registration.
  const signIn = await startAuthentication(t);
  const mixed = await verify(`${alice.cookie}; ${signIn.cookie}`, signIn.options.challenge);
  assert.equal(mixed.status, 400);

  assert.equal(
    (await t.db.kysely.selectFrom("authenticators").selectAll().execute()).length,
    0,
  );
});

Deno.test("passkeys: register verify refuses a response for another challenge, origin or RP, or without user verification", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const cases: Array<[string, SoftAuthenticator, (challenge: string) => string, boolean]> = [
    ["other challenge", await softAuthenticator(user.id), () => "b3RoZXItY2hhbGxlbmdl", true],
    [
      "other origin",
      await SoftAuthenticator.create({ rpId: "localhost", origin: "https://evil.test" }),
      (c) => c,
      true,
    ],
    [
      "other RP ID",
      await SoftAuthenticator.create({ rpId: "evil.test", origin: "http://localhost:3000" }),
      (c) => c,
      true,
    ],
    ["not user-verified", await softAuthenticator(user.id), (c) => c, false],
  ];
  for (const [label, authenticator, challengeOf, userVerified] of cases) {
    const started = await startRegistration(t, cookie);
    const response = await authenticator.register(challengeOf(started.options.challenge), {
      userVerified,
    });
    const res = await call(t.app, "POST", VERIFY, { cookie: started.cookie, body: { response } });
    assert.equal(res.status, 400, label);
    assert.equal((await res.json()).message, "the passkey could not be verified", label);
  }
  assert.equal((await t.db.kysely.selectFrom("authenticators").selectAll().execute()).length, 0);
});

Deno.test("passkeys: register verify validates the body and the name", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const authenticator = await softAuthenticator(user.id);
  const bodies: Array<[unknown, string[]]> = [
    [null, [""]],
    [{}, ["response"]],
    [{ response: { id: "not base64!", type: "public-key" } }, [
      "response.id",
      "response.rawId",
      "response.clientExtensionResults",
      "response.response",
    ]],
  ];
  for (const [body, paths] of bodies) {
    const started = await startRegistration(t, cookie);
    const res = await call(t.app, "POST", VERIFY, { cookie: started.cookie, body });
    assert.equal(res.status, 400);
    const error = await res.json();
    assert.equal(error.kind, "validation");
    assert.deepEqual(error.issues.map((i: { path: string }) => i.path), paths);
  }
  for (const name of ["", "   ", "x".repeat(51)]) {
    const started = await startRegistration(t, cookie);
    const response = await authenticator.register(started.options.challenge);
    const res = await call(t.app, "POST", VERIFY, {
      cookie: started.cookie,
      body: { response, name },
    });
    assert.equal(res.status, 400, JSON.stringify(name));
    assert.deepEqual((await res.json()).issues.map((i: { path: string }) => i.path), ["name"]);
  }
});

Deno.test("passkeys: a credential already registered to another user answers 409", async () => {
  await using t = await createTestApp();
  const alice = await signedInUser(t);
  const bob = await signedInUser(t);
  const authenticator = await registerPasskey(t, alice.user.id, alice.cookie);
  const started = await startRegistration(t, bob.cookie);
  const response = await authenticator.register(started.options.challenge);
  const res = await call(t.app, "POST", VERIFY, { cookie: started.cookie, body: { response } });
  assert.equal(res.status, 409);
  assert.equal((await res.json()).kind, "conflict");
  const rows = await t.db.kysely.selectFrom("authenticators").select("user_id").execute();
  assert.deepEqual(rows, [{ user_id: alice.user.id }]);
});
