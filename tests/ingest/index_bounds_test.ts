// What ingest writes never fails its batch for being too large for an index (migrations 0019,
// 0029): a failing request with a long address (a JWT in its path, a 2,000-character query) and a
// user agent naming a 1,000-character browser are stored, and a value too large for an index
// anyway is a 400 naming the field, never a 500 the SDK retries with the same batch.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import {
  customEvent,
  ingestRowCounts,
  METADATA,
  postIngest,
  recordedEvents,
  type TestEvent,
} from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";

const T0 = Date.now() - 60_000;

/** `length` base64url characters a compressor cannot shrink (a fixed seed: the same every run). */
function noise(length: number, seed: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let x = seed, out = "";
  for (let i = 0; i < length; i++) {
    x ^= x << 13, x ^= x >>> 17, x ^= x << 5;
    out += alphabet[(x >>> 0) % 64];
  }
  return out;
}

const JWT = `eyJhbGciOiJIUzI1NiJ9.eyJ${noise(700, 7)}.${noise(86, 11)}`;
const LONG_URL = `https://api.shop.test/v1/files/${JWT}/download?sig=${noise(2_000, 13)}`;

const failingRequest = (url: string, timestamp: number): TestEvent => ({
  type: 6,
  timestamp: timestamp + 50,
  data: {
    plugin: "rrweb/network@1",
    payload: {
      requests: [{
        name: url,
        method: "GET",
        initiatorType: "fetch",
        status: 500,
        startTime: 1,
        endTime: 41,
        timestamp,
      }],
    },
  },
});

Deno.test("ingest: a failing request with a JWT path and a 2,000-character query is stored with its batch and listed by insights", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  await t.db.kysely.updateTable("projects").set({ network_enabled: true }).execute();
  const body = {
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(3, T0), failingRequest(LONG_URL, T0 + 2_500)],
    metadata: METADATA,
  };
  const res = await postIngest(t.app, body, { key: w.alpha.key });
  assert.equal(res.status, 204, await res.text());

  const batch = await t.db.kysely.selectFrom("event_batches").select(["event_count", "snapshot_ts"])
    .executeTakeFirstOrThrow();
  assert.equal(batch.event_count, 4);
  assert.equal(Number(batch.snapshot_ts), T0 + 1_000);
  const { res: insights, body: read } = await w.get("/api/insights?range=7d");
  assert.equal(insights.status, 200);
  assert.deepEqual(read.endpoints, [{
    endpoint: "GET /v1/files/:id/download",
    sessions: 1,
    failures: 1,
    lastStatus: 500,
    lastSeenAt: new Date(T0 + 2_500).toISOString(),
  }]);
});

/** `length` CJK characters (three bytes each in UTF-8) a compressor cannot shrink. */
const wide = (length: number) =>
  [...noise(length, 17)].map((c, i) => String.fromCharCode(0x4e00 + c.charCodeAt(0) * 97 + i % 89))
    .join("");

Deno.test("ingest: a user agent naming a 1,000-character browser is stored with the name cut", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const body = {
    sessionId: crypto.randomUUID(),
    events: recordedEvents(3, T0),
    metadata: { ...METADATA, userAgent: `${wide(1_000)}/1.0 (X11)` },
  };
  const res = await postIngest(t.app, body, { key: w.alpha.key });
  assert.equal(res.status, 204, await res.text());
  const session = await t.db.kysely.selectFrom("sessions").select(["browser", "event_count"])
    .executeTakeFirstOrThrow();
  assert.equal(session.event_count, 3);
  assert.equal(session.browser, `${wide(1_000).slice(0, 63)}…`);
});

/**
 * An index carrying markers' payloads, as 0028's did: the last line of defence must answer. Dropped
 * on disposal, as an emptied PGlite is handed to the module's next test.
 */
async function unboundedIndex(t: TestApp): Promise<AsyncDisposable> {
  await sql`CREATE INDEX markers_unbounded_test_idx ON markers (session_created_at)
    INCLUDE (data) WHERE kind = 'checkout'`.execute(t.db.kysely);
  return {
    [Symbol.asyncDispose]: async () => {
      await sql`DROP INDEX markers_unbounded_test_idx`.execute(t.db.kysely);
    },
  };
}

/** A marker of ~3 KB no compressor shrinks. */
const checkout = (timestamp: number) =>
  customEvent("service:checkout", {
    a: noise(1_000, 3),
    b: noise(1_000, 5),
    c: noise(1_000, 9),
  }, timestamp);

async function assertRefused(res: Response) {
  assert.equal(res.status, 400);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const error = await res.json();
  assert.equal(error.kind, "validation");
  assert.deepEqual(error.issues.map((i: { path: string }) => i.path), ["events"]);
}

Deno.test("ingest: a value too large for an index is a 400 naming the field, and nothing is written", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  await using _index = await unboundedIndex(t);
  const body = {
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(3, T0), checkout(T0 + 2_500)],
    metadata: METADATA,
  };
  await assertRefused(await postIngest(t.app, body, { key: w.alpha.key }));
  assert.deepEqual(await ingestRowCounts(t.db.kysely), {
    sessions: 0,
    eventBatches: 0,
    markers: 0,
    trackedUsers: 0,
  });
});

Deno.test("ingest: the rest of a numbered batch too large for an index is a 400 too, the first copy kept", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const events = [...recordedEvents(3, T0), checkout(T0 + 2_500)];
  const page = { sessionId: crypto.randomUUID(), pageId: crypto.randomUUID(), seq: 0 };
  const first = await postIngest(t.app, { ...page, events: events.slice(0, 3) }, {
    key: w.alpha.key,
  });
  assert.equal(first.status, 204);
  await using _index = await unboundedIndex(t);
  // Its first three events are stored: only the rest, with the marker, is written now.
  await assertRefused(await postIngest(t.app, { ...page, events }, { key: w.alpha.key }));
  const counts = await ingestRowCounts(t.db.kysely);
  assert.deepEqual([counts.sessions, counts.eventBatches, counts.markers], [1, 1, 0]);
});
