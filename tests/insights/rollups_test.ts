// Migration 0017: the insights' signal rollups kept by ingest's statement (with 0032's hours and
// latest stacks) agree with a recount of the markers, count a session once per element however
// many batches repeat it, give a deleted session's signals back, and expire with their hours in
// the daily cleanup.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp } from "@/tests/helpers/app.ts";
import {
  customEvent,
  METADATA,
  postIngest,
  recordedEvents,
  type TestEvent,
} from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { runCleanup } from "@/core/service/cleanup.ts";
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;

const T0 = Date.now() - 60_000;
const DAY = 86_400_000;

const rage = (text: string, timestamp: number) =>
  customEvent(
    "service:rage_click",
    { selector: "button#buy", text, x: 1, y: 2, clicks: 3 },
    timestamp,
  );
/**
 * A console error as the SDK records it: ingest makes it an `error` marker. One top frame (one
 * group), called from a place that differs with the time: each error's stack is its own.
 */
const error = (message: string, timestamp: number): TestEvent => ({
  type: 6,
  data: {
    plugin: "rrweb/console@1",
    payload: {
      level: "error",
      trace: [
        "pay (https://shop.test/app.js:1:2)",
        `step${timestamp} (https://shop.test/a.js:3:4)`,
      ],
      payload: [JSON.stringify(message)],
    },
  },
  timestamp,
});

/** The live rollup rows, in a stable order (rows counted down to nothing are left out). */
async function rollupRows(db: Db) {
  const { rows } = await sql<
    Record<string, unknown>
  >`SELECT organization_id, kind, created_day, project_id, key, sessions,
      errors, rage_clicks, dead_clicks, last_ts::text, last_text, last_stack
    FROM signal_rollups WHERE sessions > 0 OR errors + rage_clicks + dead_clicks > 0
    ORDER BY kind, key, project_id, created_day`.execute(db);
  return rows;
}

/** What rebuild_signal_rollups() recounts from the markers, in a transaction rolled back. */
async function recounted(db: Db) {
  let rows: Record<string, unknown>[] = [];
  const rollBack = new Error("rolled back");
  await db.transaction().execute(async (trx) => {
    await sql`SELECT rebuild_signal_rollups()`.execute(trx);
    rows = await rollupRows(trx);
    throw rollBack;
  }).catch((error) => {
    if (error !== rollBack) throw error;
  });
  return rows;
}

Deno.test("insights: ingest keeps the rollups as a recount of the markers would; a deleted session gives its signals back", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const key = { key: w.alpha.key };
  const identity = (userId: string) => ({ ...METADATA, userIdentity: { userId, traits: {} } });
  const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
  const batches = [
    {
      sessionId: a,
      events: [...recordedEvents(2, T0), rage("Buy", T0 + 3000)],
      metadata: identity("ada"),
    },
    // the same element again in a later batch: still one session
    { sessionId: a, events: [rage("Buy now", T0 + 9000), error("boom", T0 + 9100)] },
    {
      sessionId: b,
      events: [...recordedEvents(2, T0), rage("Buy", T0 + 2000)],
      metadata: identity("ada"),
    },
    {
      sessionId: c,
      events: [...recordedEvents(2, T0), error("boom", T0 + 5000)],
      metadata: identity("bob"),
    },
  ];
  for (const batch of batches) assert.equal((await postIngest(t.app, batch, key)).status, 204);

  const { body } = await w.get("/api/insights?range=7d");
  assert.deepEqual(body.rageClicks, [{
    selector: "button#buy",
    text: "Buy now",
    sessions: 2,
    users: 1,
    lastSeenAt: new Date(T0 + 9000).toISOString(),
  }]);
  assert.deepEqual(
    body.errors.map((
      e: { message: string; sessions: number; users: number },
    ) => [e.message, e.sessions, e.users]),
    [["boom", 2, 2]],
  );
  assert.equal(body.pages[0].rageClicks, 3);
  assert.deepEqual(await rollupRows(w.db), await recounted(w.db));

  // deleted through the dashboard's statement (sessions' delete trigger)
  // (the latest signal's ts and text stay the deleted session's: a count can be taken back, a
  // maximum cannot)
  await w.db.deleteFrom("sessions").where("external_id", "=", a).execute();
  const counts = (rows: Record<string, unknown>[]) =>
    rows.map(({ last_ts: _, last_text: __, last_stack: ___, ...counted }) => counted);
  assert.deepEqual(counts(await rollupRows(w.db)), counts(await recounted(w.db)));
  const after = (await w.get("/api/insights?range=7d")).body;
  assert.equal(after.rageClicks[0].sessions, 1);
  assert.deepEqual(after.errors.map((e: { sessions: number }) => e.sessions), [1]);
});

Deno.test("insights: the daily cleanup drops the rollups of expired sessions", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const batch = {
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(2, T0), rage("Buy", T0 + 3000)],
    metadata: { ...METADATA, userIdentity: { userId: "ada", traits: {} } },
  };
  assert.equal((await postIngest(t.app, batch, { key: w.alpha.key })).status, 204);
  const count = async (table: string) =>
    Number(
      (await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(w.db))
        .rows[0].n,
    );
  assert.ok(await count("signal_rollups") > 0);
  assert.equal(await count("signal_users"), 1);
  await runCleanup(t.deps, new Date(Date.now() + 8 * DAY));
  assert.equal(await count("signal_rollups"), 0);
  assert.equal(await count("signal_users"), 0);
});
