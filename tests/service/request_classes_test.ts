// No request class can starve the others. Health answers a flood from one cached
// probe; a flood of dashboard reads that hang on the database holds only the dashboard's share of
// the pool, so ingest still gets connections of its own; a request whose database budget expired
// runs no further query; a dashboard body that arrives slowly is the body timeout's 408 (#8).
import assert from "node:assert/strict";
import { sql } from "kysely";
import { APP_ORIGIN, call, signedInUser } from "../helpers/auth.ts";
import { createTestApp } from "../helpers/app.ts";
import { insertProject } from "../helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "../helpers/ingest.ts";

const url = Deno.env.get("DATABASE_URL");

Deno.test("health: 300 parallel calls are all answered 200 from one probe of the database", async () => {
  await using t = await createTestApp();
  const status = t.deps.status;
  let probes = 0;
  t.deps.status = () => {
    probes++;
    return status();
  };
  const answers = await Promise.all(
    Array.from({ length: 300 }, () => t.app.request("/api/health")),
  );
  assert.deepEqual([...new Set(answers.map((r) => r.status))], [200]);
  for (const answer of answers) await answer.body?.cancel();
  // One probe, or two if the flood outlived the first one's second of validity.
  assert.ok(probes <= 2, `${probes} probes for 300 calls`);
});

Deno.test({
  name: "a flood of dashboard reads stuck on the database leaves ingest its own connections",
  ignore: !url, // PGlite is one connection: there is no pool to share out
  fn: async () => {
    await using t = await createTestApp({ INGEST_DATABASE_BUDGET_MS: "3000" });
    const { cookie } = await signedInUser(t);
    const project = await insertProject(t.db.kysely);
    // Every dashboard request resolves its viewer, which reads revoked_tokens; ingest does not.
    // The lock is taken outside any request, on one of the pool's own connections.
    const locked = Promise.withResolvers<void>();
    const unlock = Promise.withResolvers<void>();
    const lockHeld = t.db.kysely.transaction().execute(async (trx) => {
      await sql`LOCK TABLE revoked_tokens IN ACCESS EXCLUSIVE MODE`.execute(trx);
      locked.resolve();
      await unlock.promise;
    });
    await locked.promise;
    try {
      const reads = Array.from(
        { length: 12 },
        () => call(t.app, "GET", "/api/sessions/summary", { cookie }),
      );
      // The dashboard's share (3 of the pool's 10) waits on the lock; the other reads queue.
      while (t.db.gate.usage().dashboard.held < 3) await tick();
      const ingest = await postIngest(t.app, {
        sessionId: crypto.randomUUID(),
        events: recordedEvents(3),
        metadata: METADATA,
      }, { key: project.key });
      assert.equal(ingest.status, 204, await ingest.text());
      unlock.resolve();
      await lockHeld;
      const statuses = [];
      for (const read of await Promise.all(reads)) {
        statuses.push(read.status);
        // Past the share's wait: 503 with Retry-After, never a 500.
        if (read.status === 503) assert.equal(read.headers.get("retry-after"), "1");
        await read.body?.cancel();
      }
      assert.ok(statuses.every((s) => s === 200 || s === 503), statuses.join());
      assert.equal(t.db.gate.usage().dashboard.peak, 3);
    } finally {
      unlock.resolve();
      await lockHeld.catch(() => {});
    }
  },
});

Deno.test("a request answered 503 past its database budget runs none of its remaining queries", async () => {
  await using t = await createTestApp({ DASHBOARD_DATABASE_BUDGET_MS: "100" });
  const { cookie, user } = await signedInUser(t);
  // Hold the request between its viewer and its own statement until the budget has expired.
  const gate = Promise.withResolvers<void>();
  const before = await t.db.kysely.selectFrom("users").select("name").where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  const { Hono } = await import("hono");
  const { databaseBudget } = await import("../../http/database_budget.ts");
  const { requestClasses, renderError } = await import("../../http/middleware.ts");
  const app = new Hono();
  app.onError(renderError);
  app.use(requestClasses());
  app.post("/api/slow", databaseBudget(100), async (c) => {
    await gate.promise;
    await t.db.kysely.updateTable("users").set({ name: "written after the answer" })
      .where("id", "=", user.id).execute();
    return c.body(null, 204);
  });
  const answer = await app.request("/api/slow", {
    method: "POST",
    headers: { Origin: APP_ORIGIN, Cookie: cookie },
  });
  assert.equal(answer.status, 503);
  gate.resolve();
  await tick();
  await tick();
  const after = await t.db.kysely.selectFrom("users").select("name").where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  assert.equal(after.name, before.name);
  assert.ok(t.logs.some((l) => l.tag === "db:budget:exceeded"));
});

Deno.test("a dashboard JSON body that stalls is answered 408 by the body timeout, not 503", async () => {
  await using t = await createTestApp({
    DASHBOARD_DATABASE_BUDGET_MS: "300",
    HTTP_BODY_TIMEOUT_MS: "1500",
  });
  const { cookie } = await signedInUser(t);
  let stop!: () => void;
  const stalled = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"name":"Ac'));
      stop = () => {
        try {
          controller.close();
        } catch { /* cancelled by the server's 408 already */ }
      };
    },
  });
  const answer = await t.app.request("/api/organizations", {
    method: "POST",
    headers: { Origin: APP_ORIGIN, Cookie: cookie, "Content-Type": "application/json" },
    body: stalled,
  });
  stop();
  assert.equal(answer.status, 408);
  assert.equal((await answer.json()).kind, "request_timeout");
  // The same request with its body in time is answered as usual.
  const created = await call(t.app, "POST", "/api/organizations", {
    cookie,
    body: { name: "Acme" },
  });
  assert.equal(created.status, 201);
  await created.body?.cancel();
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 10));
