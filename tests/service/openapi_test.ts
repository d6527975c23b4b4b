// GET /api/openapi.json against the app itself: every registered route is documented and every
// documented one exists; on a seeded database every documented GET, and representative mutations,
// answer with exactly the documented shape (strict schemas, so an undocumented field fails too).
import assert from "node:assert/strict";
import { z } from "zod";
import { createApi } from "@/api/mod.ts";
import { errorBody } from "@/api/error_schema.ts";
import { jsonSchema } from "@/api/openapi/schema.ts";
import type { AppDeps } from "@/core/deps.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { CRON_SECRET, openApiWorld } from "@/tests/helpers/openapi_world.ts";
import {
  documentedRoutes,
  errorStatuses,
  mountedRoutes,
  type RouteDoc,
} from "@/tests/helpers/openapi_routes.ts";

const routeDocs = (deps: AppDeps) => documentedRoutes(createApi(deps));

const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path}`;
const docOf = (routes: RouteDoc[], method: string, path: string): RouteDoc => {
  const doc = routes.find((r) => keyOf(r.method, r.path) === keyOf(method, path));
  assert.ok(doc, `${keyOf(method, path)} is documented`);
  return doc;
};

/** The path with each `{name}` replaced by the seeded value. */
function fill(path: string, params: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    assert.ok(params[name], `the test seeds a value for {${name}} of ${path}`);
    return encodeURIComponent(params[name]);
  });
}

function parseOrFail(schema: z.ZodType, value: unknown, what: string) {
  const result = schema.safeParse(value);
  if (!result.success) {
    assert.fail(
      `${what} disagrees with the document:\n${z.prettifyError(result.error)}\n` +
        `body: ${JSON.stringify(value).slice(0, 2000)}`,
    );
  }
}

/** Asserts the answer is one the route documents, with its headers and body shape. */
async function assertDocumented(route: RouteDoc, res: Response): Promise<unknown> {
  const what = `${keyOf(route.method, route.path)} → ${res.status}`;
  const success = route.responses[res.status];
  if (!success) {
    assert.ok(errorStatuses(route).includes(res.status), `${what} is a documented status`);
    const body = await res.json();
    parseOrFail(errorBody, body, what);
    return body;
  }
  if (route.noStore) assert.equal(res.headers.get("cache-control"), "no-store", what);
  const type = res.headers.get("content-type") ?? "";
  if (success.body) {
    assert.match(type, /^application\/json/, what);
    const body = await res.json();
    parseOrFail(success.body, body, what);
    return body;
  }
  if (success.contentType) {
    assert.ok(type.startsWith(success.contentType), `${what}: ${type}`);
    await res.body?.cancel();
    return null;
  }
  assert.equal(await res.text(), "", `${what} has no body`);
  return null;
}

/** Lists answered with items, so their items' shape is checked too. */
function assertItems(route: RouteDoc, body: unknown) {
  const list = Array.isArray(body) ? body : (body as { data?: unknown })?.data;
  if (Array.isArray(list)) assert.ok(list.length > 0, `${route.path} answered with items`);
}

Deno.test("openapi: every route of the /api app is documented and every documented route exists", async () => {
  await using t = await createTestApp();
  const registered = mountedRoutes(createApi(t.deps));
  const documented = routeDocs(t.deps).map((r) => keyOf(r.method, r.path));
  assert.equal(new Set(documented).size, documented.length, "each route is documented once");
  const missing = [...new Set(registered)].filter((k) => !documented.includes(k));
  const stale = documented.filter((k) => !registered.includes(k));
  assert.deepEqual({ missing, stale }, { missing: [], stale: [] });
});

Deno.test("openapi: GET /api/openapi.json is an OpenAPI 3.1 document of every route", async () => {
  await using t = await createTestApp();
  const res = await t.app.request("/api/openapi.json");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /^application\/json/);
  const doc = await res.json();
  assert.equal(doc.openapi, "3.1.0");
  assert.deepEqual(Object.keys(doc.components.securitySchemes).sort(), [
    "cronSecret",
    "publicKey",
    "sessionCookie",
  ]);
  assert.equal(doc.components.securitySchemes.sessionCookie.name, "playhead_session");
  assert.equal(doc.components.securitySchemes.publicKey.name, "x-service-public-key");
  assert.deepEqual(doc.components.schemas.Error, jsonSchema(errorBody, "output"));
  const operationIds = new Set<string>();
  for (const route of routeDocs(t.deps)) {
    const op = doc.paths[route.path]?.[route.method];
    assert.ok(op, `${keyOf(route.method, route.path)} is in the document`);
    assert.ok(!operationIds.has(op.operationId), `operationId ${op.operationId} is unique`);
    operationIds.add(op.operationId);
    for (const status of errorStatuses(route)) {
      assert.equal(
        op.responses[status].content["application/json"].schema.$ref,
        "#/components/schemas/Error",
      );
    }
    if (route.noStore) {
      const [status] = Object.keys(route.responses);
      assert.ok(op.responses[status].headers["Cache-Control"], `${route.path} notes no-store`);
    }
  }
  const sessionsList = doc.paths["/api/sessions"].get;
  assert.deepEqual(sessionsList.security, [{ sessionCookie: [] }]);
  assert.deepEqual(
    sessionsList.parameters.find((p: { name: string }) => p.name === "sort").schema.enum,
    ["date", "duration", "signals"],
  );
  const names = sessionsList.parameters.map((p: { name: string }) => p.name);
  for (const name of ["user", "visited", "minDuration", "maxDuration", "signals", "device"]) {
    assert.ok(names.includes(name), `GET /api/sessions documents ${name}`);
  }
});

Deno.test("openapi: every documented GET answers an OWNER with exactly the documented shape", async () => {
  await using t = await createTestApp({
    CRON_SECRET,
    AUTH_OAUTH_A_ID: "openapi-client",
    AUTH_OAUTH_A_SECRET: "openapi-secret",
  });
  const w = await openApiWorld(t);
  // The provider's redirect back needs a sign-in begun in this browser: without one it is 400.
  const expectedError: Record<string, number> = { "GET /api/auth/callback/{provider}": 400 };
  for (const route of routeDocs(t.deps).filter((r) => r.method === "get")) {
    const headers: Record<string, string> = route.auth === "bearer"
      ? { Authorization: `Bearer ${CRON_SECRET}` }
      : route.auth === "public-key"
      ? { "x-service-public-key": w.project.key }
      : {};
    const path = fill(route.path, w.params(route.path)) + w.query(route.path);
    const res = await call(t.app, "GET", path, {
      cookie: w.me.cookie,
      headers,
    });
    const expected = expectedError[keyOf(route.method, route.path)];
    if (expected) assert.equal(res.status, expected, route.path);
    else assert.ok(route.responses[res.status], `${route.path} succeeded: ${res.status}`);
    assertItems(route, await assertDocumented(route, res));
  }
});

Deno.test("openapi: signed out, every cookie-authenticated GET answers the documented error body", async () => {
  await using t = await createTestApp();
  const w = await openApiWorld(t);
  for (const route of routeDocs(t.deps).filter((r) => r.method === "get" && r.auth === "cookie")) {
    const res = await call(
      t.app,
      "GET",
      fill(route.path, w.params(route.path)) + w.query(route.path),
    );
    assert.equal(res.status, 401, route.path);
    await assertDocumented(route, res);
  }
});

Deno.test("openapi: representative mutations answer an OWNER with exactly the documented shape", async () => {
  await using t = await createTestApp();
  const w = await openApiWorld(t);
  const org = w.me.organizationId;
  const steps: [method: string, path: string, status: number, body?: unknown][] = [
    ["options", "/api/ingest", 204],
    ["post", "/api/sessions/cancel", 204, { sessionId: crypto.randomUUID() }],
    ["post", "/api/organizations", 201, { name: "Second" }],
    ["patch", "/api/organizations/{orgId}", 200, { name: "Acme Labs" }],
    ["patch", "/api/organizations/active", 204, { organizationId: org }],
    ["patch", "/api/organizations/{orgId}/members/{memberId}", 200, { role: "ADMIN" }],
    ["post", "/api/organizations/{orgId}/invites", 201, { email: "new@x.test", role: "VIEWER" }],
    ["patch", "/api/organizations/{orgId}/invites/{inviteId}", 200, { role: "ADMIN" }],
    ["post", "/api/projects", 201, { name: "Beta", organizationId: org }],
    ["patch", "/api/projects/{id}", 200, { name: "Alpha 2" }],
    ["patch", "/api/projects/{id}", 200, { recording: { sampleRate: 0.5, triggers: ["error"] } }],
    ["options", "/api/sdk/config", 204],
    ["patch", "/api/projects/{id}/display-name-trait-key", 200, { traitKey: "name" }],
    ["post", "/api/projects/{id}/regenerate-key", 200],
    ["patch", "/api/tracked-users/{id}/display-name", 200, { customName: "Grace H." }],
    ["patch", "/api/user", 200, { name: "Ada" }],
    ["post", "/api/user/avatar", 200],
    ["patch", "/api/user/passkeys/{credentialId}", 200, { name: "Work laptop" }],
    ["post", "/api/user/invites/{inviteId}/accept", 200],
    ["post", "/api/auth/passkeys/register/options", 200],
    ["post", "/api/auth/passkeys/authenticate/options", 200],
    ["post", "/api/auth/otp/send", 204, { email: "someone@x.test" }],
    ["post", "/api/saved-searches", 201, { name: "Rage", query: "?signals=rage_click" }],
    ["patch", "/api/saved-searches/{id}", 200, { name: "Errors 2", query: "device=mobile" }],
    ["delete", "/api/saved-searches/{id}", 204],
    ["post", "/api/alert-rules", 201, {
      projectId: w.project.id,
      name: "Rage",
      signal: "rage_click",
      groupBy: "selector",
      threshold: 5,
      windowMinutes: 10,
      cooldownMinutes: 60,
      deliver: { email: ["team@acme.test"] },
    }],
    ["patch", "/api/alert-rules/{id}", 200, { threshold: 6 }],
    ["post", "/api/alert-rules/{id}/secret", 200],
    ["post", "/api/alert-rules/{id}/test", 200],
    ["delete", "/api/alert-rules/{id}", 204],
    ["delete", "/api/sessions/{id}", 204],
    ["delete", "/api/tracked-users/{id}", 204],
    ["delete", "/api/organizations/{orgId}/invites/{inviteId}", 204],
    ["delete", "/api/user/passkeys/{credentialId}", 204],
    ["post", "/api/auth/signout", 204, {}],
  ];
  const routes = routeDocs(t.deps);
  for (const [method, path, status, body] of steps) {
    const route = docOf(routes, method, path);
    const headers: Record<string, string> = route.auth === "public-key"
      ? { "x-service-public-key": w.project.key }
      : {};
    const res = await call(t.app, method.toUpperCase(), fill(path, w.params(path)), {
      cookie: w.me.cookie,
      body,
      headers,
    });
    if (res.status !== status) assert.fail(`${method} ${path}: ${res.status} ${await res.text()}`);
    await assertDocumented(route, res);
  }
});
