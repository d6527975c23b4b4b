// Sessions (docs/decisions.md "Sign-in and accounts"): the JWT cookie resolves the viewer, stale or
// forged tokens do not, and cookie-authenticated mutations must come from the app's own origin.
import assert from "node:assert/strict";
import { SignJWT } from "jose";
import { dashboardApp, requireViewer } from "@/api/dashboard.ts";
import { renderError } from "@/http/middleware.ts";
import { signSession } from "@/core/auth/token.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { APP_ORIGIN, call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertOrganization } from "@/tests/helpers/factories.ts";

// A probe sub-app built like every dashboard resource, so the middleware is tested on its own.
function probe(t: TestApp) {
  const app = dashboardApp(t.deps);
  app.onError(renderError);
  app.get("/me", (c) => c.json(requireViewer(c)));
  app.post("/mutate", (c) => c.json({ ok: true, viewer: c.var.viewer?.userId ?? null }));
  return app;
}

Deno.test("session: a valid cookie resolves the viewer with the active organization's role", async () => {
  await using t = await createTestApp();
  const { user, organizationId, cookie } = await signedInUser(t, { role: "ADMIN" });
  const res = await call(probe(t), "GET", "/me", { cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.deepEqual(await res.json(), {
    userId: user.id,
    email: user.email,
    activeOrganizationId: organizationId,
    role: "ADMIN",
    clientAddress: "unknown", // app.request(): no connection, no trusted proxy
  });
});

Deno.test("session: no cookie, a tampered token or a token of another secret answers 401", async () => {
  await using t = await createTestApp({ AUTH_SECRET: "first-secret" });
  const { user, cookie } = await signedInUser(t);
  const [name, token] = cookie.split("=");
  const forged = await signSession("rotated-secret", { userId: user.id, version: 0 });
  const tampered = token.slice(0, -2) + (token.endsWith("A") ? "BB" : "AA");
  for (const header of [undefined, `${name}=${tampered}`, `${name}=${forged}`, `${name}=junk`]) {
    const res = await call(probe(t), "GET", "/me", { cookie: header });
    assert.equal(res.status, 401);
    assert.match(res.headers.get("content-type")!, /application\/json/);
    assert.equal((await res.json()).kind, "auth");
  }
});

Deno.test("session: an expired token answers 401", async () => {
  await using t = await createTestApp({ AUTH_SECRET: "s3cret" });
  const { user } = await signedInUser(t);
  const past = Math.floor(Date.now() / 1000) - 60;
  const expired = await new SignJWT({ ver: 0 }).setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id).setIssuedAt(past - 3600).setExpirationTime(past)
    .sign(new TextEncoder().encode("s3cret"));
  const res = await call(probe(t), "GET", "/me", { cookie: `playhead_session=${expired}` });
  assert.equal(res.status, 401);
  assert.equal((await res.json()).kind, "auth");
});

Deno.test("session: deleting the user or bumping its token version invalidates its tokens at once", async () => {
  await using t = await createTestApp();
  const a = await signedInUser(t);
  const b = await signedInUser(t);
  await t.db.kysely.deleteFrom("users").where("id", "=", a.user.id).execute();
  await t.db.kysely.updateTable("users").set({ token_version: 1 }).where("id", "=", b.user.id)
    .execute();
  for (const cookie of [a.cookie, b.cookie]) {
    const res = await call(probe(t), "GET", "/me", { cookie });
    assert.equal(res.status, 401);
  }
});

Deno.test("session: an active organization the user no longer belongs to counts as none", async () => {
  await using t = await createTestApp();
  const { user, cookie } = await signedInUser(t);
  const other = await insertOrganization(t.db.kysely, "Elsewhere");
  await t.db.kysely.updateTable("users").set({ active_organization_id: other.id })
    .where("id", "=", user.id).execute();
  const res = await call(probe(t), "GET", "/me", { cookie });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.activeOrganizationId, null);
  assert.equal(body.role, null);
});

Deno.test("session: mutations are refused with 403 unless they come from the app's own origin", async () => {
  await using t = await createTestApp();
  const { cookie } = await signedInUser(t);
  const refused: Record<string, string>[] = [
    { Origin: "https://evil.test" },
    { Origin: "null" },
    { Origin: "", "Sec-Fetch-Site": "cross-site" },
    { Origin: "" },
  ];
  for (const headers of refused) {
    const res = await call(probe(t), "POST", "/mutate", { cookie, headers });
    assert.equal(res.status, 403, JSON.stringify(headers));
    assert.match(res.headers.get("content-type")!, /application\/json/);
    assert.equal((await res.json()).kind, "forbidden");
  }
  const allowed: Record<string, string>[] = [{ Origin: APP_ORIGIN }, {
    Origin: "",
    "Sec-Fetch-Site": "same-origin",
  }];
  for (const headers of allowed) {
    const res = await call(probe(t), "POST", "/mutate", { cookie, headers });
    assert.equal(res.status, 200, JSON.stringify(headers));
  }
});

Deno.test("session: without AUTH_SECRET a per-process secret is used and a warning logged", async () => {
  await using t = await createTestApp();
  assert.ok(t.logs.some((l) => l.tag === "auth:secret:ephemeral" && l.level === "warning"));
  const { cookie } = await signedInUser(t);
  await using again = await createTestApp();
  assert.equal(t.deps.authSecret, again.deps.authSecret);
  assert.equal((await call(probe(t), "GET", "/me", { cookie })).status, 200);
});

Deno.test("session: POST /api/auth/signout answers 204 and clears the cookie", async () => {
  await using t = await createTestApp();
  const { cookie } = await signedInUser(t);
  const res = await call(t.app, "POST", "/api/auth/signout", { cookie });
  assert.equal(res.status, 204);
  assert.equal(
    res.headers.get("set-cookie"),
    "playhead_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0",
  );
  // The token itself is revoked: a copy of the cookie no longer signs anyone in.
  assert.equal((await call(probe(t), "GET", "/me", { cookie })).status, 401);
});

Deno.test("session: signing out everywhere revokes every token of the user", async () => {
  await using t = await createTestApp();
  const { cookie } = await signedInUser(t);
  const res = await call(t.app, "POST", "/api/auth/signout", {
    cookie,
    body: { everywhere: true },
  });
  assert.equal(res.status, 204);
  assert.equal((await call(probe(t), "GET", "/me", { cookie })).status, 401);
});

Deno.test("session: sign-out from another origin is refused with 403", async () => {
  await using t = await createTestApp();
  const { cookie } = await signedInUser(t);
  const res = await call(t.app, "POST", "/api/auth/signout", {
    cookie,
    headers: { Origin: "https://evil.test" },
  });
  assert.equal(res.status, 403);
  assert.equal((await res.json()).kind, "forbidden");
});

Deno.test("session: pages see the same viewer in ctx.state.viewer", async () => {
  await using t = await createTestApp();
  const { user, organizationId, cookie } = await signedInUser(t);
  const { handler } = await import("@/routes/_middleware.ts");
  const state = { deps: t.deps } as Parameters<typeof handler>[1]["state"];
  const req = new Request("http://localhost:3000/", { headers: { cookie } });
  const res = await handler(
    req,
    {
      state,
      next: () => Promise.resolve(new Response("ok")),
    } as unknown as Parameters<typeof handler>[1],
  );
  assert.equal(res.status, 200);
  assert.deepEqual(state.viewer, {
    userId: user.id,
    email: user.email,
    activeOrganizationId: organizationId,
    role: "OWNER",
    clientAddress: null, // the middleware was handed no address
  });
});
