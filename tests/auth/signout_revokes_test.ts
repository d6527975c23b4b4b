// Signing out revokes the token itself, so a copy of the old cookie stops working,
// while the user's other sessions stay; "sign out everywhere" still ends them all.
import assert from "node:assert/strict";
import { runCleanup } from "@/core/service/cleanup.ts";
import { SESSION_TTL_SECONDS } from "@/core/auth/token.ts";
import { call, cookieFor, signedInUser } from "@/tests/helpers/auth.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

Deno.test("sign-out: the signed-out token no longer works; another session of the user does", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const other = await cookieFor(t, user.id);
  assert.equal((await call(t.app, "GET", "/api/user", { cookie })).status, 200);

  const out = await call(t.app, "POST", "/api/auth/signout", { cookie });
  assert.equal(out.status, 204);
  const replay = await call(t.app, "GET", "/api/user", { cookie });
  assert.equal(replay.status, 401);
  assert.equal((await replay.json()).kind, "auth");
  assert.equal((await call(t.app, "GET", "/api/user", { cookie: other })).status, 200);

  // Signing out again with the dead cookie is harmless.
  assert.equal((await call(t.app, "POST", "/api/auth/signout", { cookie })).status, 204);
});

Deno.test("sign-out everywhere: every token of the user stops working", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const other = await cookieFor(t, user.id);
  const out = await call(t.app, "POST", "/api/auth/signout", {
    cookie,
    body: { everywhere: true },
  });
  assert.equal(out.status, 204);
  assert.equal((await call(t.app, "GET", "/api/user", { cookie })).status, 401);
  assert.equal((await call(t.app, "GET", "/api/user", { cookie: other })).status, 401);
});

Deno.test("sign-out page: the header's form revokes the token too", async () => {
  await using t = await createPagesApp();
  const { cookie } = await signedInUser(t);
  const res = await page(t, "/signout", { cookie, form: {} });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/signin");
  const profile = await page(t, "/settings/profile", { cookie });
  assert.equal(profile.status, 303);
  assert.match(profile.headers.get("location")!, /^\/signin\?next=/);
});

Deno.test("cleanup: revocations go once their token would have expired anyway", async () => {
  await using t = await createTestApp();
  const { cookie } = await signedInUser(t);
  await call(t.app, "POST", "/api/auth/signout", { cookie });
  const count = async () =>
    (await t.db.kysely.selectFrom("revoked_tokens").select("token_id").execute()).length;
  assert.equal(await count(), 1);
  await runCleanup(t.deps, new Date());
  assert.equal(await count(), 1);
  await runCleanup(t.deps, new Date(Date.now() + (SESSION_TTL_SECONDS + 60) * 1000));
  assert.equal(await count(), 0);
});
