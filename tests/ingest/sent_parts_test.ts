// A batch sent in parts, as the SDK sends it (gzip members of `{"events":`, the events' array and
// the rest): its events' member is stored as it came when validation keeps the events as sent,
// with the digest of their JSON, so a copy sent whole is the same batch; otherwise, and for bodies
// of any other shape, the events are serialised and gzipped anew, as before
// (docs/decisions.md "Ingest").
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { decodePoolOf } from "@/api/ingest/decode_pool.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import {
  customEvent,
  gzipBytes,
  ingestRowCounts,
  METADATA,
  postIngest,
  recordedEvents,
  sdkGzipBody,
  type TestEvent,
} from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";
import { bodyParts } from "@/sdk/send/encoded_event.ts";

const T0 = recent(1_760_000_000_000);
const encoder = new TextEncoder();

async function setup() {
  const t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  return Object.assign(t, { project, key: project.key });
}

type App = Awaited<ReturnType<typeof setup>>;
type Body = { sessionId: string; events: TestEvent[]; metadata?: unknown };

/** Posts `body` in parts (`parts` may change them first); answers the status and the wire. */
async function postParts(t: App, body: Body, parts?: (p: string[]) => string[]) {
  const wire = await sdkGzipBody(body, parts);
  const res = await postIngest(t.app, null, {
    key: t.key,
    rawBody: wire,
    headers: { "Content-Encoding": "gzip" },
  });
  return { res, wire };
}

/** The events' member of an SDK body: the second of its three. */
async function eventsMember(wire: Uint8Array, events: unknown[]) {
  const head = (await gzipBytes(encoder.encode('{"events":'))).length;
  const member = await gzipBytes(encoder.encode(JSON.stringify(events)));
  return wire.subarray(head, head + member.length);
}

/** The session's batches, their bytes as plain arrays (PostgreSQL's driver answers Buffers). */
async function batchesOf(t: App, sessionId: string) {
  const rows = await t.db.kysely.selectFrom("event_batches").selectAll()
    .where("session_external_id", "=", sessionId).orderBy("id").execute();
  return rows.map((row) => ({
    ...row,
    data: row.data && new Uint8Array(row.data),
    digest: new Uint8Array(row.digest),
  }));
}

const inflated = async (data: Uint8Array) =>
  await new Response(
    new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream("gzip")),
  ).text();

const events = () => [
  ...recordedEvents(6, T0),
  customEvent("service:rage_click", { selector: "#buy", count: 4 }, T0 + 6000),
];

Deno.test("ingest: a batch sent in parts is stored as its events' member, with the digest of their JSON", async () => {
  await using t = await setup();
  const body = { sessionId: crypto.randomUUID(), events: events(), metadata: METADATA };
  const { res, wire } = await postParts(t, body);
  assert.equal(res.status, 204);
  const [batch] = await batchesOf(t, body.sessionId);
  assert.deepEqual(batch.data, await eventsMember(wire, body.events));
  const json = JSON.stringify(body.events);
  assert.deepEqual(batch.digest, new Uint8Array(createHash("sha256").update(json).digest()));
  assert.equal(await inflated(batch.data!), json);
});

Deno.test("ingest: in parts or whole, the same rows, markers and replayed bytes", async () => {
  await using t = await setup();
  const rows = async (sessionId: string) => {
    const session = await t.db.kysely.selectFrom("sessions").selectAll()
      .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
    const markers = await t.db.kysely.selectFrom("markers").select(["kind", "ts", "data"])
      .where("session_id", "=", session.id).orderBy("ts").orderBy("kind").execute();
    const [batch] = await batchesOf(t, sessionId);
    const { id: _, session_external_id: _e, data, created_at: _c, session_created_at: _s, ...b } =
      batch;
    const { id: _i, external_id: _x, created_at: _d, ...s } = session;
    return { session: s, batch: b, text: await inflated(data!), markers };
  };
  const whole = { sessionId: crypto.randomUUID(), events: events(), metadata: METADATA };
  const parts = { ...whole, sessionId: crypto.randomUUID() };
  assert.equal((await postIngest(t.app, whole, { key: t.key, gzip: true })).status, 204);
  assert.equal((await postParts(t, parts)).res.status, 204);
  const [a, b] = [await rows(whole.sessionId), await rows(parts.sessionId)];
  assert.deepEqual(b.session, a.session);
  assert.deepEqual(b.batch, a.batch);
  assert.equal(b.text, a.text);
  assert.deepEqual(b.markers, a.markers);
  assert.ok(b.markers.some((m) => m.kind === "rage_click"));
});

Deno.test("ingest: a batch sent whole and again in parts (or the other way) is stored once", async () => {
  await using t = await setup();
  for (const first of ["whole", "parts"]) {
    const body = { sessionId: crypto.randomUUID(), events: events(), metadata: METADATA };
    const whole = () => postIngest(t.app, body, { key: t.key, gzip: true });
    const parts = async () => (await postParts(t, body)).res;
    for (const send of first === "whole" ? [whole, parts] : [parts, whole]) {
      assert.equal((await send()).status, 204);
    }
    assert.equal((await batchesOf(t, body.sessionId)).length, 1, first);
    const session = await t.db.kysely.selectFrom("sessions").select("event_count")
      .where("external_id", "=", body.sessionId).executeTakeFirstOrThrow();
    assert.equal(session.event_count, body.events.length, first);
  }
});

Deno.test("ingest: events validation would not keep as sent are serialised anew, as a whole body's", async (t) => {
  await using app = await setup();
  const check = async (sent: TestEvent[], stored: unknown[], parts?: (p: string[]) => string[]) => {
    const body = { sessionId: crypto.randomUUID(), events: sent };
    const { res, wire } = await postParts(app, body, parts);
    assert.equal(res.status, 204);
    const [batch] = await batchesOf(app, body.sessionId);
    assert.notDeepEqual(batch.data, await eventsMember(wire, sent));
    assert.equal(await inflated(batch.data!), JSON.stringify(stored));
    const json = JSON.stringify(stored);
    assert.deepEqual(batch.digest, new Uint8Array(createHash("sha256").update(json).digest()));
  };
  await t.step("members in another order than the schema's", async () => {
    const sent = recordedEvents(3, T0).map(({ type, data, timestamp }) => ({
      timestamp,
      type,
      data,
    }));
    await check(sent, recordedEvents(3, T0));
  });
  await t.step("network events (bounded; this project records none)", async () => {
    const request = { name: "https://shop.test/api", method: "GET", startTime: 1, endTime: 2 };
    const network = {
      type: 6,
      data: { plugin: "rrweb/network@1", payload: { requests: [request] } },
      timestamp: T0 + 3000,
    };
    await check([...recordedEvents(3, T0), network], recordedEvents(3, T0));
  });
  await t.step("an events' member with a header field this server does not read", async () => {
    const sent = recordedEvents(3, T0);
    const body = { sessionId: crypto.randomUUID(), events: sent };
    const [head, list, rest] = await Promise.all(
      bodyParts(body.sessionId, null, JSON.stringify(sent)).map((p) =>
        gzipBytes(encoder.encode(p))
      ),
    );
    // FLG.FNAME and a name: still gzip, read whole by zlib, not a member taken as it came.
    const named = new Uint8Array([...list.subarray(0, 10), 0x78, 0, ...list.subarray(10)]);
    named[3] = 0x08;
    const wire = new Uint8Array([...head, ...named, ...rest]);
    const res = await postIngest(app.app, null, {
      key: app.key,
      rawBody: wire,
      headers: { "Content-Encoding": "gzip" },
    });
    assert.equal(res.status, 204);
    const [batch] = await batchesOf(app, body.sessionId);
    assert.notDeepEqual(batch.data, named);
    assert.notDeepEqual(batch.data, list);
    assert.equal(await inflated(batch.data!), JSON.stringify(sent));
  });
});

Deno.test("ingest: events' text in another form than JSON.stringify's is stored as sent, parsing to the events validated", async () => {
  await using t = await setup();
  const sent = recordedEvents(3, T0);
  const body = { sessionId: crypto.randomUUID(), events: sent };
  const spaced = (list: string) => list.replaceAll(",", ", ").replaceAll("/", "\\/");
  const { res, wire } = await postParts(t, body, ([h, list, rest]) => [h, spaced(list), rest]);
  assert.equal(res.status, 204);
  const [batch] = await batchesOf(t, body.sessionId);
  const text = await inflated(batch.data!);
  assert.equal(text, spaced(JSON.stringify(sent)));
  assert.deepEqual(JSON.parse(text), sent);
  const head = (await gzipBytes(encoder.encode('{"events":'))).length;
  assert.deepEqual(batch.data, wire.subarray(head, head + batch.data!.length));
});

Deno.test("ingest: a large batch sent in parts is stored as its member by a decode worker too", async () => {
  await using t = await setup();
  const pool = decodePoolOf(t.deps)!;
  const before = pool.decoded;
  let x = 7;
  const noise = Array.from({ length: 60_000 }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) % 36).toString(36);
  }).join("");
  const body = {
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(3, T0), { type: 3, data: { text: noise }, timestamp: T0 + 4000 }],
  };
  const { res, wire } = await postParts(t, body);
  assert.equal(res.status, 204);
  assert.equal(pool.decoded - before, 1);
  const [batch] = await batchesOf(t, body.sessionId);
  assert.deepEqual(batch.data, await eventsMember(wire, body.events));
});

Deno.test("ingest: a bad batch in parts is the 400 a whole one gets, and stores nothing", async () => {
  await using t = await setup();
  const before = await ingestRowCounts(t.db.kysely);
  const bad = recordedEvents(3, T0);
  bad[2] = { ...bad[2], timestamp: 12 };
  const body = { sessionId: crypto.randomUUID(), events: bad };
  const parts = await postParts(t, body);
  const whole = await postIngest(t.app, body, { key: t.key, gzip: true });
  assert.equal(parts.res.status, 400);
  assert.equal(parts.res.headers.get("content-type"), "application/json");
  // The same issue at the same path (its message names the clock's window, to the millisecond).
  const issues = async (res: Response) => {
    const { kind, message, issues } = await res.json();
    return { kind, message, paths: issues.map((i: { path: string }) => i.path) };
  };
  const answer = await issues(whole);
  assert.deepEqual(answer.paths, ["events.2.timestamp"]);
  assert.deepEqual(await issues(parts.res), answer);
  assert.deepEqual(await ingestRowCounts(t.db.kysely), before);
});
