// A database outage and the kill -9 check, for real: the production entry on a disposable
// PostgreSQL cluster, under ingest load. The database is stopped and started again; the service
// answers 503 with CORS and Retry-After meanwhile, never dies, recovers by itself, and every batch
// it acknowledged is stored. Run with `deno task test:faults` (CI runs it on PostgreSQL).
import assert from "node:assert/strict";
import { openDb } from "@/db/client.ts";
import { signSession } from "@/core/auth/token.ts";
import { insertMembership, insertProject, insertUser } from "@/tests/helpers/factories.ts";
import { clusterAvailable, startCluster } from "./cluster.ts";
import { ingestLoad, type Load, startService, waitUntil } from "./service.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ignore = !clusterAvailable;

async function assertAllStored(url: string, load: Load) {
  const db = await openDb({ kind: "postgres", url, max: 2 });
  try {
    const rows = await db.kysely.selectFrom("event_batches")
      .select(["session_external_id", "first_ts"]).execute();
    const stored = new Set(rows.map((r) => `${r.session_external_id}/${r.first_ts}`));
    const lost = load.acknowledged.filter((a) => !stored.has(`${a.sessionId}/${a.firstTs}`));
    assert.equal(lost.length, 0, `${lost.length} acknowledged batches missing`);
    // Nothing is stored twice either: at most one row per batch sent.
    assert.equal(stored.size, rows.length);
  } finally {
    await db.close();
  }
}

const SECRET = "fault-test-secret-Vd0pK3n9yQ2mX7rB4tL8";

async function projectKey(url: string): Promise<string> {
  return (await seed(url)).key;
}

/** A project and its organization's OWNER, with a session cookie for the service. */
async function seed(url: string) {
  const db = await openDb({ kind: "postgres", url, max: 1 });
  try {
    const project = await insertProject(db.kysely);
    const user = await insertUser(db.kysely);
    await insertMembership(db.kysely, project.organization_id, user.id, "OWNER");
    await db.kysely.updateTable("users").set({ active_organization_id: project.organization_id })
      .where("id", "=", user.id).execute();
    const token = await signSession(SECRET, { userId: user.id, version: user.token_version });
    return { key: project.key, cookie: `playhead_session=${token}` };
  } finally {
    await db.close();
  }
}

const OUTAGES = 3;

/** The dashboard's pages and form posts during an outage: a 503 page, as the API. */
async function assertPagesUnavailable(url: string, cookie: string) {
  const id = crypto.randomUUID();
  const requests: Array<[string, Record<string, string>?]> = [
    ["/sessions"],
    ["/users"],
    [`/users/${id}`],
    [`/replays/${id}`],
    ["/settings/profile"],
    ["/settings/organization/projects"],
    [`/users/${id}`, { intent: "set-display-name", displayName: "A" }],
    ["/settings/profile", { intent: "set-name", name: "A" }],
  ];
  for (const [path, form] of requests) {
    const res = await fetch(`${url}${path}`, {
      method: form ? "POST" : "GET",
      headers: form
        ? { cookie, origin: url, "content-type": "application/x-www-form-urlencoded" }
        : { cookie },
      body: form ? new URLSearchParams(form) : undefined,
      redirect: "manual",
    });
    const what = `${form ? "POST" : "GET"} ${path}`;
    assert.equal(res.status, 503, what);
    assert.equal(res.headers.get("retry-after"), "5", what);
    assert.equal(res.headers.get("cache-control"), "no-store", what);
    assert.match(await res.text(), /Temporarily unavailable/, what);
  }
}

Deno.test({
  name:
    "faults: PostgreSQL stopped and started three times under ingest load — 503s, no exit, recovery, nothing acknowledged lost",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using cluster = await startCluster();
    const { key, cookie } = await seed(cluster.url);
    const service = await startService(cluster.url, {
      AUTH_SECRET: SECRET,
      DASHBOARD_DATABASE_BUDGET_MS: "2000",
      // A form post's budget adds the body timeout (routes/_middleware.ts).
      HTTP_BODY_TIMEOUT_MS: "2000",
    });
    const read = () => fetch(`${service.url}/api/sessions`, { headers: { cookie } });
    try {
      const before = await read();
      assert.equal(before.status, 200);
      await before.body?.cancel();
      const load = ingestLoad(service.url, key);
      await waitUntil(() => Promise.resolve(load.acknowledged.length >= 50));
      // Three outages in a row on one service process: each one answered 503, each recovered.
      for (let outage = 1; outage <= OUTAGES; outage++) {
        await cluster.stop("fast");
        const ackedBefore = load.acknowledged.length;
        const unavailableBefore = load.statuses.get(503) ?? 0;
        await waitUntil(() =>
          Promise.resolve((load.statuses.get(503) ?? 0) >= unavailableBefore + 20)
        );
        const health = await fetch(`${service.url}/api/health`);
        assert.equal(health.status, 503);
        assert.equal(health.headers.get("retry-after"), "5");
        assert.deepEqual(await health.json(), {
          kind: "unavailable",
          message: "database unavailable",
          retryAfter: 5,
        });
        const during = await read();
        assert.equal(during.status, 503);
        assert.equal((await during.json()).kind, "unavailable");
        await assertPagesUnavailable(service.url, cookie);
        await sleep(3000);
        await cluster.start();
        // Recovery without a restart: new batches are acknowledged again.
        await waitUntil(() => Promise.resolve(load.acknowledged.length >= ackedBefore + 50));
        console.log(`outage ${outage}: recovered, ${load.acknowledged.length} acknowledged so far`);
      }
      await load.stop();
      assert.equal((await fetch(`${service.url}/api/health`)).status, 200);
      const after = await read();
      assert.equal(after.status, 200);
      await after.body?.cancel();
      const page = await fetch(`${service.url}/sessions`, { headers: { cookie } });
      assert.equal(page.status, 200);
      await page.body?.cancel();

      const statuses = Object.fromEntries(load.statuses);
      console.log("outage run statuses", statuses, "acknowledged", load.acknowledged.length);
      assert.equal(load.statuses.get(500) ?? 0, 0, JSON.stringify(statuses));
      assert.equal(load.statuses.get(0) ?? 0, 0, "the service stopped answering");
      assert.equal(load.badHeaders, 0);
      await assertAllStored(cluster.url, load);
    } finally {
      service.child.kill("SIGKILL");
      await service.status;
    }
  },
});

Deno.test({
  name: "faults: SIGTERM after a database fault ends the process within its grace period",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using cluster = await startCluster();
    const key = await projectKey(cluster.url);
    const service = await startService(cluster.url, { INGEST_DATABASE_BUDGET_MS: "60000" });
    const load = ingestLoad(service.url, key);
    await waitUntil(() => Promise.resolve(load.acknowledged.length >= 20));
    await cluster.stop("immediate");
    await sleep(500); // requests now hang on the missing database (a long budget on purpose)
    service.child.kill("SIGTERM");
    let watchdogFired = false;
    const watchdog = setTimeout(() => {
      watchdogFired = true;
      service.child.kill("SIGKILL");
    }, 30_000);
    await service.status;
    clearTimeout(watchdog);
    await load.stop();
    assert.equal(watchdogFired, false, "the process ignored SIGTERM");
    await cluster.start();
    await assertAllStored(cluster.url, load);
  },
});

Deno.test({
  name: "faults: kill -9 of the service under load loses no acknowledged batch",
  ignore,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using cluster = await startCluster();
    const key = await projectKey(cluster.url);
    const service = await startService(cluster.url);
    const load = ingestLoad(service.url, key, 8);
    await waitUntil(() => Promise.resolve(load.acknowledged.length >= 200));
    service.child.kill("SIGKILL");
    await service.status;
    await load.stop();
    console.log("kill -9 run: acknowledged", load.acknowledged.length);
    await assertAllStored(cluster.url, load);
  },
});
