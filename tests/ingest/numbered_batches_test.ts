// Numbered batches (`pageId`, `seq`): the same events of a page arriving in copies cut into
// different batches, in any order or at once (keepalive bodies at unload, the journal re-sent by
// the next page, retries), are each stored, counted and marked once.
import assert from "node:assert/strict";
import fc from "fast-check";
import { sql } from "kysely";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import {
  customEvent,
  gunzipJson,
  METADATA,
  postIngest,
  recordedEvents,
  type TestEvent,
} from "@/tests/helpers/ingest.ts";

// Recent, so that no bound on recorded times refuses them.
const T0 = Date.now() - 3_600_000;
const COUNT = 30;

/** A page's events: a snapshot, mutations, an error, a rage click and a dead click. */
function pageEvents(start = T0): TestEvent[] {
  const events = recordedEvents(COUNT, start);
  events[7] = {
    type: 6,
    data: {
      plugin: "rrweb/console@1",
      payload: { level: "error", trace: ["at f (app.js:1:2)"], payload: ['"boom"'] },
    },
    timestamp: start + 7_000,
  };
  events[15] = customEvent("service:rage_click", {
    selector: "button#buy",
    text: "Buy",
    x: 1,
    y: 2,
    clicks: 3,
  }, start + 15_000);
  events[22] = customEvent(
    "service:dead_click",
    { selector: "a", text: "A", x: 1, y: 2 },
    start + 22_000,
  );
  return events;
}

/** The batch of `events[from, to)` as the page numbered them. */
const cut = (sessionId: string, pageId: string, events: TestEvent[], from: number, to: number) => ({
  sessionId,
  pageId,
  seq: from,
  events: events.slice(from, to),
});

async function world(t: TestApp) {
  const project = await insertProject(t.db.kysely);
  const post = async (body: unknown) => {
    const res = await postIngest(t.app, body, { key: project.key });
    assert.equal(res.status, 204, await res.text());
  };
  /** The session's stored events, batch by batch, and its row. */
  const stored = async (sessionId: string) => {
    const rows = await t.db.kysely.selectFrom("event_batches").select(["data", "event_count"])
      .where("project_id", "=", project.id).where("session_external_id", "=", sessionId)
      .execute();
    const events = [];
    for (const row of rows) events.push(...(await gunzipJson(row.data!) as TestEvent[]));
    const session = await t.db.kysely.selectFrom("sessions").selectAll()
      .where("project_id", "=", project.id).where("external_id", "=", sessionId)
      .executeTakeFirstOrThrow();
    const markers = await t.db.kysely.selectFrom("markers").select("kind")
      .where("session_id", "=", session.id).where("kind", "!=", "url").orderBy("ts").execute();
    return { events, rows, session, markers: markers.map((m) => m.kind) };
  };
  return { project, post, stored };
}

/** Each of `events` once, whatever the order the batches were stored in. */
function assertOnce(stored: TestEvent[], events: TestEvent[]) {
  const key = (e: TestEvent) => JSON.stringify(e);
  assert.deepEqual(stored.map(key).sort(), events.map(key).sort());
}

function assertCountedOnce(s: Awaited<ReturnType<Awaited<ReturnType<typeof world>>["stored"]>>) {
  assert.equal(s.session.event_count, COUNT);
  assert.equal(s.rows.reduce((n, r) => n + r.event_count, 0), COUNT);
  assert.deepEqual(
    [s.session.error_count, s.session.rage_click_count, s.session.dead_click_count],
    [1, 1, 1],
  );
  assert.deepEqual(s.markers, ["error", "rage_click", "dead_click"]);
}

Deno.test("ingest: a page's keepalive tail and its journal copy, cut differently, are stored once", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  const sessionId = crypto.randomUUID();
  const page = crypto.randomUUID();
  const events = pageEvents();
  // The unload's keepalive bodies, halved to fit the budget...
  await w.post({ ...cut(sessionId, page, events, 0, 8), metadata: METADATA });
  await w.post(cut(sessionId, page, events, 8, 16));
  await w.post(cut(sessionId, page, events, 16, 30));
  // ... then the journal, written before the last events, re-sent by the next page.
  await w.post({ ...cut(sessionId, page, events, 0, 24), metadata: METADATA });
  await w.post(cut(sessionId, page, events, 24, 30));
  const s = await w.stored(sessionId);
  assertOnce(s.events, events);
  assertCountedOnce(s);
  assert.equal(s.rows.length, 3, "the copies stored nothing");
});

Deno.test("ingest: copies of a page's events cut anywhere and sent in any order are stored once", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  // A copy: a stretch of the page's events, cut at any boundaries.
  const copy = fc.record({
    from: fc.nat(COUNT - 1),
    length: fc.integer({ min: 1, max: COUNT }),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: COUNT - 1 }), { maxLength: 6 }),
  });
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.uniqueArray(fc.integer({ min: 1, max: COUNT - 1 }), { maxLength: 6 }), {
        minLength: 1,
        maxLength: 3,
      }),
      fc.array(copy, { maxLength: 4 }),
      fc.infiniteStream(fc.nat()),
      async (wholeCopies, partCopies, order) => {
        const sessionId = crypto.randomUUID();
        const page = crypto.randomUUID();
        const events = pageEvents();
        const batches: ReturnType<typeof cut>[] = [];
        const pieces = (from: number, to: number, cuts: number[]) => {
          const bounds = [
            from,
            ...cuts.filter((c) => c > from && c < to).sort((a, b) => a - b),
            to,
          ];
          for (let i = 1; i < bounds.length; i++) {
            batches.push(cut(sessionId, page, events, bounds[i - 1], bounds[i]));
          }
        };
        for (const cuts of wholeCopies) pieces(0, COUNT, cuts);
        for (const c of partCopies) pieces(c.from, Math.min(COUNT, c.from + c.length), c.cuts);
        // A shuffle drawn from the stream, bounded by the number of batches.
        const draws = order.take(batches.length);
        for (const [i, n] of [...draws].entries()) {
          const j = i + (n % (batches.length - i));
          [batches[i], batches[j]] = [batches[j], batches[i]];
        }
        for (const batch of batches) await w.post(batch);
        const s = await w.stored(sessionId);
        assertOnce(s.events, events);
        assertCountedOnce(s);
      },
    ),
    { numRuns: 25 },
  );
});

Deno.test("ingest: overlapping copies of a page's events arriving at once are stored once", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  const sessionId = crypto.randomUUID();
  const page = crypto.randomUUID();
  const events = pageEvents();
  await w.post({ sessionId, events: [], metadata: METADATA }); // the session exists
  // Partial copies only, so that most requests store a trimmed rest while others claim.
  await Promise.all([
    [0, 12],
    [12, 30],
    [5, 20],
    [10, 25],
    [3, 9],
    [20, 30],
    [8, 16],
    [14, 28],
  ].map(([from, to]) => w.post(cut(sessionId, page, events, from, to))));
  const s = await w.stored(sessionId);
  assertOnce(s.events, events);
  assertCountedOnce(s);
});

Deno.test("ingest: a numbered batch whose network event bounding left out is trimmed by its numbers", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  const sessionId = crypto.randomUUID();
  const page = crypto.randomUUID();
  const events = recordedEvents(10, T0);
  // A network event with no request worth keeping: left out, and the events after it move up.
  events[3] = {
    type: 6,
    data: { plugin: "rrweb/network@1", payload: { requests: "none" } },
    timestamp: T0 + 3_000,
  };
  await w.post(cut(sessionId, page, events, 5, 10));
  await w.post(cut(sessionId, page, events, 0, 8));
  await w.post(cut(sessionId, page, events, 2, 10));
  const { events: stored, session } = await w.stored(sessionId);
  assertOnce(stored, events.filter((_, i) => i !== 3));
  assert.equal(session.event_count, 9);
});

Deno.test("ingest: numbers count per page: two pages' events of the same numbers are both stored", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  const sessionId = crypto.randomUUID();
  const one = pageEvents();
  const two = pageEvents(T0 + 100_000);
  await w.post(cut(sessionId, crypto.randomUUID(), one, 0, 30));
  await w.post(cut(sessionId, crypto.randomUUID(), two, 0, 30));
  const s = await w.stored(sessionId);
  assertOnce(s.events, [...one, ...two]);
  assert.equal(s.session.event_count, 60);
  assert.equal(s.session.error_count, 2);
});

Deno.test("ingest: a page's copies after its first batch was offloaded store the rest, staged", async () => {
  // A store that is never reached: ingest only stages batches for the offloader.
  await using t = await createTestApp({
    EVENTS_STORE: "s3://playhead-test/recordings",
    AWS_ACCESS_KEY_ID: "test",
    AWS_SECRET_ACCESS_KEY: "test",
    AWS_REGION: "us-east-1",
    AWS_ENDPOINT_URL_S3: "http://127.0.0.1:9",
  });
  const w = await world(t);
  const sessionId = crypto.randomUUID();
  const page = crypto.randomUUID();
  const events = pageEvents();
  await w.post(cut(sessionId, page, events, 0, 20));
  // As the offloader leaves a batch: its bytes in an object, none in the row.
  await sql`UPDATE event_batches SET data = NULL, staged = NULL, object_key = 'recordings/x',
    object_offset = 0, object_length = 1`.execute(t.db.kysely);
  await w.post(cut(sessionId, page, events, 10, 30));
  await w.post(cut(sessionId, page, events, 0, 30));
  const rows = await t.db.kysely.selectFrom("event_batches").select([
    "data",
    "staged",
    "event_count",
  ])
    .where("data", "is not", null).execute();
  assert.equal(rows.length, 1);
  assert.equal(rows[0].staged, true);
  assertOnce(await gunzipJson(rows[0].data!) as TestEvent[], events.slice(20));
  const session = await t.db.kysely.selectFrom("sessions").select("event_count")
    .executeTakeFirstOrThrow();
  assert.equal(session.event_count, COUNT);
});

Deno.test("ingest: a page's numbers go with its session", async () => {
  await using t = await createTestApp();
  const w = await world(t);
  const sessionId = crypto.randomUUID();
  const page = crypto.randomUUID();
  const events = pageEvents();
  await w.post(cut(sessionId, page, events, 0, 30));
  await t.db.kysely.deleteFrom("sessions").execute();
  assert.equal((await t.db.kysely.selectFrom("page_sequences").selectAll().execute()).length, 0);
  // The same id opened again starts with nothing stored.
  await w.post(cut(sessionId, page, events, 0, 30));
  assertOnce((await w.stored(sessionId)).events, events);
});

Deno.test("ingest: seq without pageId, or pageId without seq, is 400 naming seq", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const sessionId = crypto.randomUUID();
  for (const range of [{ pageId: crypto.randomUUID() }, { seq: 0 }]) {
    const res = await postIngest(t.app, {
      sessionId,
      events: recordedEvents(2, T0),
      ...range,
    }, { key: project.key });
    assert.equal(res.status, 400);
    assert.match(res.headers.get("content-type") ?? "", /json/);
    assert.match(JSON.stringify(await res.json()), /"seq"/);
  }
});
