// DELETE /api/user/accounts/{provider} (docs/decisions.md "Sign-in and accounts"): linked OAuth
// accounts and email code (when mail is configured) are login methods, passkeys are not; the last
// one cannot be unlinked (409, `auth:account:unlink:guard_blocked`).
import assert from "node:assert/strict";
import { createId } from "@paralleldrive/cuid2";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";

async function link(t: TestApp, userId: string, provider: string) {
  await t.db.kysely.insertInto("accounts").values({
    id: createId(),
    user_id: userId,
    provider,
    provider_account_id: createId(),
    email: null,
  }).execute();
}

async function addPasskey(t: TestApp, userId: string) {
  await t.db.kysely.insertInto("authenticators").values({
    credential_id: createId(),
    user_id: userId,
    public_key: new Uint8Array([1, 2, 3]),
    credential_device_type: "singleDevice",
    name: "Laptop",
  }).execute();
}

const unlink = (t: TestApp, cookie: string, provider: string) =>
  call(t.app, "DELETE", `/api/user/accounts/${provider}`, { cookie });

const providers = async (t: TestApp, cookie: string) =>
  (await (await call(t.app, "GET", "/api/user", { cookie })).json()).accounts;

Deno.test("accounts: GET /api/user lists linked providers; unlinking one of two answers 204", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  await link(t, user.id, "github");
  await link(t, user.id, "google");
  assert.deepEqual(await providers(t, cookie), [{ provider: "github" }, { provider: "google" }]);
  const res = await unlink(t, cookie, "github");
  assert.equal(res.status, 204);
  assert.deepEqual(await providers(t, cookie), [{ provider: "google" }]);
  assert.ok(t.logs.some((l) => l.tag === "auth:account:unlink:ok"));
});

Deno.test("accounts: the last login method cannot be unlinked (409, logged); a passkey does not count", async () => {
  await using t = await createTestApp(); // no mail: email code is not a login method here
  const { user, cookie } = await signedInUser(t);
  await link(t, user.id, "github");
  await addPasskey(t, user.id);
  const res = await unlink(t, cookie, "github");
  assert.equal(res.status, 409);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal((await res.json()).kind, "conflict");
  assert.deepEqual(await providers(t, cookie), [{ provider: "github" }]);
  const blocked = t.logs.find((l) => l.tag === "auth:account:unlink:guard_blocked");
  assert.equal(blocked?.level, "warning");
  assert.equal(blocked?.props.provider, "github");
  assert.equal(blocked?.props.userId, user.id);
});

Deno.test("accounts: with mail configured, email code counts, so the only linked account can go", async () => {
  const smtp = await startTestSmtp();
  try {
    await using t = await createTestApp(smtp.env);
    const { user, cookie } = await signedInUser(t);
    await link(t, user.id, "google");
    assert.equal((await unlink(t, cookie, "google")).status, 204);
    assert.deepEqual(await providers(t, cookie), []);
  } finally {
    await smtp[Symbol.asyncDispose]();
  }
});

Deno.test("accounts: two concurrent unlinks of the last two methods leave one", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  await link(t, user.id, "github");
  await link(t, user.id, "google");
  const results = await Promise.all([unlink(t, cookie, "github"), unlink(t, cookie, "google")]);
  assert.deepEqual(results.map((r) => r.status).sort(), [204, 409]);
  assert.equal((await providers(t, cookie)).length, 1);
});

Deno.test("accounts: a provider that is not linked is 404; signed out 401; another origin 403", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  await link(t, user.id, "github");
  const missing = await unlink(t, cookie, "google");
  assert.equal(missing.status, 404);
  assert.equal((await missing.json()).kind, "not_found");
  const anonymous = await call(t.app, "DELETE", "/api/user/accounts/github");
  assert.equal(anonymous.status, 401);
  const crossSite = await call(t.app, "DELETE", "/api/user/accounts/github", {
    cookie,
    headers: { Origin: "https://evil.test" },
  });
  assert.equal(crossSite.status, 403);
  assert.deepEqual(await providers(t, cookie), [{ provider: "github" }]);
});
