// Cross-cutting HTTP behaviour: health, security headers, error bodies.
import assert from "node:assert/strict";
import { Hono } from "hono";
import { SECURITY_HEADERS, serverTiming } from "@/http/middleware.ts";
import { createApp } from "@/app.ts";
import { createDeps } from "@/core/deps.ts";
import { loadConfig } from "@/config.ts";
import { openDb } from "@/db/client.ts";
import { LATEST_MIGRATION } from "@/db/migrator.ts";
import { createTestApp } from "@/tests/helpers/app.ts";

Deno.test("health: reports ok with the database kind and migration level", async () => {
  await using t = await createTestApp();
  const res = await t.app.request("/api/health");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const body = await res.json();
  assert.equal(body.status, "ok");
  assert.equal(body.database, "ok");
  assert.equal(body.databaseKind, t.db.kind);
  assert.equal(body.migrationLevel, LATEST_MIGRATION);
  assert.equal(body.store, "off"); // no EVENTS_STORE: recordings stay in the database
  assert.equal(res.headers.get("cache-control"), "no-store");
});

Deno.test("health: answers 503 when the database cannot be reached", async () => {
  // Nothing listens on port 1: every connection attempt is refused at once.
  const unreachable = await openDb({ kind: "postgres", url: "postgres://nobody@127.0.0.1:1/none" });
  const app = createApp(createDeps(loadConfig({ NODE_ENV: "test" }), unreachable));
  try {
    const res = await app.request("/api/health");
    assert.equal(res.status, 503);
    assert.equal((await res.json()).kind, "unavailable");
  } finally {
    await unreachable.close();
  }
});

Deno.test("security headers: on API answers, errors and pages alike", async () => {
  await using t = await createTestApp();
  for (const path of ["/api/health", "/api/nope", "/some/page"]) {
    const res = await t.app.request(path);
    await res.body?.cancel();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
      assert.equal(res.headers.get(name), value, `${name} on ${path}`);
    }
    assert.equal(res.headers.get("content-security-policy"), null);
  }
});

Deno.test("server timing: API answers, errors and pages say how long the server took", async () => {
  await using t = await createTestApp();
  for (const path of ["/api/health", "/api/nope", "/some/page"]) {
    const res = await t.app.request(path);
    await res.body?.cancel();
    const timing = res.headers.get("server-timing") ?? "";
    assert.match(timing, /^app;dur=\d+\.\d$/, `${path}: ${timing}`);
  }
  // the duration covers the handler's own wait
  const app = new Hono().use(serverTiming())
    .get("/", async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return c.text("done");
    });
  const res = await app.request("/");
  const dur = Number(/dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "")?.[1]);
  assert.ok(dur >= 29, `dur ${dur}`);
});

Deno.test("errors: an unknown API path is a JSON 404", async () => {
  await using t = await createTestApp();
  const res = await t.app.request("/api/does-not-exist");
  assert.equal(res.status, 404);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.deepEqual(await res.json(), { kind: "not_found", message: "no such endpoint" });
});
