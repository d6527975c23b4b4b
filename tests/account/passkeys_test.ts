// /api/user/passkeys (docs/decisions.md "Account"): the viewer's own passkeys only — list, read,
// rename (trimmed, 1..50 characters), delete; another user's passkey answers 404 and stays as it
// was.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { registerPasskey } from "@/tests/helpers/passkeys.ts";

Deno.test("user passkeys: every endpoint answers 401 when signed out", async () => {
  await using t = await createTestApp();
  for (
    const [method, path] of [["GET", ""], ["GET", "/abc"], ["PATCH", "/abc"], ["DELETE", "/abc"]]
  ) {
    const res = await call(t.app, method, `/api/user/passkeys${path}`, {
      body: method === "PATCH" ? { name: "x" } : undefined,
    });
    assert.equal(res.status, 401, `${method} ${path}`);
    assert.equal((await res.json()).kind, "auth");
  }
});

Deno.test("user passkeys: the list holds the viewer's passkeys only, oldest first", async () => {
  await using t = await createTestApp();
  const alice = await signedInUser(t);
  const bob = await signedInUser(t);
  const first = await registerPasskey(t, alice.user.id, alice.cookie, "Laptop");
  const second = await registerPasskey(t, alice.user.id, alice.cookie, "Phone");
  await registerPasskey(t, bob.user.id, bob.cookie, "Bob's key");

  const res = await call(t.app, "GET", "/api/user/passkeys", { cookie: alice.cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const list = await res.json();
  assert.deepEqual(list.map((p: { credentialID: string }) => p.credentialID), [
    first.credentialId,
    second.credentialId,
  ]);
  for (const p of list) {
    assert.deepEqual(Object.keys(p).sort(), [
      "createdAt",
      "credentialDeviceType",
      "credentialID",
      "name",
    ]);
    assert.match(p.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  }
  const one = await call(t.app, "GET", `/api/user/passkeys/${second.credentialId}`, {
    cookie: alice.cookie,
  });
  assert.equal(one.status, 200);
  assert.deepEqual(await one.json(), list[1]);
});

Deno.test("user passkeys: rename trims the name and keeps it to 1..50 characters", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const key = await registerPasskey(t, user.id, cookie);
  const path = `/api/user/passkeys/${key.credentialId}`;

  const res = await call(t.app, "PATCH", path, { cookie, body: { name: "  Work laptop  " } });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  const renamed = await res.json();
  assert.equal(renamed.name, "Work laptop");
  assert.equal(renamed.credentialID, key.credentialId);
  const fifty = "é".repeat(50);
  assert.equal((await call(t.app, "PATCH", path, { cookie, body: { name: fifty } })).status, 200);

  for (const body of [{}, { name: "" }, { name: "   " }, { name: "x".repeat(51) }, { name: 5 }]) {
    const bad = await call(t.app, "PATCH", path, { cookie, body });
    assert.equal(bad.status, 400, JSON.stringify(body));
    const error = await bad.json();
    assert.equal(error.kind, "validation");
    assert.deepEqual(error.issues.map((i: { path: string }) => i.path), ["name"]);
  }
  const profile = await (await call(t.app, "GET", "/api/user", { cookie })).json();
  assert.equal(profile.passkeys[0].name, fifty);
});

Deno.test("user passkeys: delete removes the viewer's own passkey", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const key = await registerPasskey(t, user.id, cookie);
  const path = `/api/user/passkeys/${key.credentialId}`;
  const res = await call(t.app, "DELETE", path, { cookie });
  assert.equal(res.status, 204);
  assert.equal(await res.text(), "");
  assert.equal((await call(t.app, "GET", path, { cookie })).status, 404);
  assert.equal((await call(t.app, "DELETE", path, { cookie })).status, 404);
  assert.deepEqual(await (await call(t.app, "GET", "/api/user/passkeys", { cookie })).json(), []);
});

Deno.test("user passkeys: another user's passkey answers 404 and is left untouched", async () => {
  await using t = await createTestApp();
  const alice = await signedInUser(t);
  const bob = await signedInUser(t);
  const key = await registerPasskey(t, alice.user.id, alice.cookie, "Alice's key");
  const path = `/api/user/passkeys/${key.credentialId}`;
  for (
    const [method, body] of [["GET", undefined], ["PATCH", { name: "Mine now" }], [
      "DELETE",
      undefined,
    ]] as const
  ) {
    const res = await call(t.app, method, path, { cookie: bob.cookie, body });
    assert.equal(res.status, 404, method);
    assert.equal((await res.json()).kind, "not_found");
  }
  const row = await t.db.kysely.selectFrom("authenticators").select(["user_id", "name"])
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { user_id: alice.user.id, name: "Alice's key" });
});

Deno.test("user passkeys: an id that cannot be a credential answers 404; mutations need the app's origin", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const key = await registerPasskey(t, user.id, cookie);
  for (const id of ["not%20base64", "x".repeat(1401), "a.b"]) {
    const res = await call(t.app, "GET", `/api/user/passkeys/${id}`, { cookie });
    assert.equal(res.status, 404, id.slice(0, 20));
  }
  const path = `/api/user/passkeys/${key.credentialId}`;
  for (const method of ["PATCH", "DELETE"]) {
    const res = await call(t.app, method, path, {
      cookie,
      body: { name: "x" },
      headers: { Origin: "https://evil.test" },
    });
    assert.equal(res.status, 403, method);
  }
  assert.equal((await call(t.app, "GET", path, { cookie })).status, 200);
});
