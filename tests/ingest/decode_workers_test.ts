// Large ingest bodies are decoded, validated and prepared in worker threads, not on
// the main thread; what the workers answer is what the main thread would (stored batches, 400
// issues, 413); the bytes admitted at once are budgeted, past it 503 + Retry-After at once.
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { threadId } from "node:worker_threads";
import {
  createDecodePool,
  DECODE_JOB_TIMEOUT_MS,
  decodePoolOf,
  type PoolTimers,
} from "@/api/ingest/decode_pool.ts";
import { MAX_JSON_NESTING } from "@/http/json_shape.ts";
import { OFFLOAD_MIN_WIRE_BYTES } from "@/api/ingest/ingest_body.ts";
import { gunzipCapped } from "@/http/body.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

/** A batch of about `bytes` of JSON, compressing a few to one like media data. */
function largeBatch(bytes: number, seed: number) {
  let x = seed;
  const text = Array.from({ length: bytes }, () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return "abcdefghijklmnopqrstuvwxyz0123456789"[(x >>> 0) % 36];
  }).join("");
  return {
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(2, T0), { type: 3, data: { text }, timestamp: T0 + 5000 }],
    metadata: METADATA,
  };
}

const jsonBytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const gzipJson = (value: unknown) => new Uint8Array(gzipSync(jsonBytes(value)));

Deno.test("ingest: large bodies are decoded on worker threads and stored as the main thread would", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const pool = decodePoolOf(t.deps)!;
  const before = pool.decoded;
  const batches = Array.from({ length: 6 }, (_, i) => largeBatch(300_000, i + 1));
  const bodies = batches.map(gzipJson);
  assert.ok(bodies.every((b) => b.byteLength >= OFFLOAD_MIN_WIRE_BYTES));
  const answers = await Promise.all(
    bodies.map((rawBody) =>
      postIngest(t.app, null, { key, rawBody, headers: { "Content-Encoding": "gzip" } })
    ),
  );
  assert.deepEqual(answers.map((a) => a.status), [204, 204, 204, 204, 204, 204]);
  assert.equal(pool.decoded - before, 6);
  assert.ok(pool.threads.size >= 1 && !pool.threads.has(threadId), "decoded off the main thread");
  assert.ok(pool.peak <= 2);
  // Stored byte for byte as the events were sent, with the session's metadata.
  for (const batch of batches) {
    const row = await t.db.kysely.selectFrom("event_batches").select(["data", "event_count"])
      .where("session_external_id", "=", batch.sessionId).executeTakeFirstOrThrow();
    assert.equal(row.event_count, 3);
    const stored = JSON.parse(new TextDecoder().decode(gunzipCapped(row.data!, 64 << 20)));
    assert.deepEqual(stored, batch.events);
    const session = await t.db.kysely.selectFrom("sessions").select(["url", "browser"])
      .where("external_id", "=", batch.sessionId).executeTakeFirstOrThrow();
    assert.equal(session.url, METADATA.url);
  }
});

Deno.test("ingest: a worker answers a bad large body as the main thread does (400 issues); a gzip bomb is 413 before a worker sees it", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const post = (rawBody: Uint8Array<ArrayBuffer>) =>
    postIngest(t.app, null, { key, rawBody, headers: { "Content-Encoding": "gzip" } });
  const pool = decodePoolOf(t.deps)!;
  const before = pool.decoded;

  const invalid = { ...largeBatch(300_000, 7), sessionId: "not-a-uuid" };
  const bad = await post(gzipJson(invalid));
  assert.equal(bad.status, 400);
  const body = await bad.json();
  assert.equal(body.kind, "validation");
  assert.deepEqual(body.issues.map((i: { path: string }) => i.path), ["sessionId"]);

  const notJson = await post(new Uint8Array(gzipSync(new Uint8Array(200_000).fill(0x41))));
  assert.equal(notJson.status, 400);
  assert.equal((await notJson.json()).message, "body is not valid JSON");

  assert.equal(pool.decoded - before, 1, "the invalid batch was decoded in a worker");

  // 40 KiB of gzip that would inflate far beyond its allowance (48×): 413 as it inflates.
  const bomb = new Uint8Array(gzipSync(new Uint8Array(40 << 20).fill(32), { level: 9 }));
  const padded = new Uint8Array(Math.max(bomb.byteLength, OFFLOAD_MIN_WIRE_BYTES));
  padded.set(bomb);
  const tooLarge = await post(bomb.byteLength >= OFFLOAD_MIN_WIRE_BYTES ? bomb : padded);
  assert.equal(tooLarge.status, 413);
  await tooLarge.body?.cancel();
  assert.equal(pool.decoded - before, 1, "the bomb never reached a worker");
  assert.equal((await t.db.kysely.selectFrom("event_batches").select("id").execute()).length, 0);
});

Deno.test("decode pool: bytes in flight are budgeted; past the budget a body is refused at once", async () => {
  const pool = createDecodePool({ workers: 1, maxBytesInFlight: 400_000 });
  const body = jsonBytes(largeBatch(300_000, 3));
  assert.ok(body.byteLength > 200_000 && body.byteLength < 400_000, String(body.byteLength));
  const first = pool.decode({ bytes: body.slice() }, "a");
  // A second body would take the bytes in flight past the budget: 503 with Retry-After, no wait.
  assert.throws(
    () => pool.decode({ bytes: body.slice() }, "b"),
    (error: Error & { kind?: string; details?: unknown }) =>
      error.kind === "unavailable" && JSON.stringify(error.details) === '{"retryAfter":1}',
  );
  const prepared = await first;
  assert.equal(prepared.eventCount, 3);
  assert.equal(pool.bytesInFlight, 0);
  // Once the first is done, the next is admitted.
  assert.equal((await pool.decode({ bytes: body.slice() }, "b")).eventCount, 3);
});

Deno.test("decode pool: keys take turns: with one worker, another key's body is decoded after the one in progress, before the first key's queue", async () => {
  const pool = createDecodePool({ workers: 1, maxBytesInFlight: 64 << 20 });
  const flood = jsonBytes(largeBatch(200_000, 1));
  const normal = jsonBytes(largeBatch(40 * 1024, 2));
  const order: string[] = [];
  const decode = (key: string, bytes: Uint8Array) =>
    pool.decode({ bytes: bytes.slice() }, key).then(() => order.push(key));
  // All five wait for the worker, which is still loading: it then takes them one at a time.
  const answers = [1, 2, 3, 4].map(() => decode("a", flood));
  answers.push(decode("b", normal));
  assert.equal(pool.queued, 5);
  await Promise.all(answers);
  assert.deepEqual(order, ["a", "b", "a", "a", "a"]);
});

Deno.test("decode pool: a key holds at most half of the bytes in flight; another key's body is admitted beside it", async () => {
  const pool = createDecodePool({ workers: 1, maxBytesInFlight: 1_000_000 });
  /** A batch of exactly `size` bytes of JSON (spaces after it). */
  const sized = (size: number, seed: number) => {
    const json = jsonBytes(largeBatch(100_000, seed));
    const bytes = new Uint8Array(size).fill(0x20);
    bytes.set(json);
    return bytes;
  };
  const refused = (error: Error & { kind?: string }) => error.kind === "unavailable";
  const answers = [pool.decode({ bytes: sized(250_000, 1) }, "a")];
  // Half is 500,000 bytes: one byte past it is refused, exactly it is admitted.
  assert.throws(() => pool.decode({ bytes: sized(250_001, 2) }, "a"), refused);
  answers.push(pool.decode({ bytes: sized(250_000, 3) }, "a"));
  assert.throws(() => pool.decode({ bytes: sized(110_000, 4) }, "a"), refused);
  // The budget has room for another key: 250,000 more make 750,000 of 1,000,000.
  answers.push(pool.decode({ bytes: sized(250_000, 5) }, "b"));
  assert.equal(pool.bytesInFlight, 750_000);
  const prepared = await Promise.all(answers);
  assert.deepEqual(prepared.map((p) => p.eventCount), [3, 3, 3]);
  assert.equal(pool.bytesInFlight, 0);
});

/** 8 MB of arrays nested 4,000,000 deep inside an event: the probe's body. */
function nestedBody(depth = 4_000_000) {
  const head =
    `{"sessionId":"${crypto.randomUUID()}","events":[{"type":5,"timestamp":${T0},"data":`;
  return new TextEncoder().encode(head + "[".repeat(depth) + "]".repeat(depth) + "}]}");
}

Deno.test("ingest: bodies nested past the limit are refused before parsing; a normal batch beside them is stored", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const pool = decodePoolOf(t.deps)!;
  const nested = Array.from({ length: 4 }, () => nestedBody());
  assert.ok(nested.every((b) => b.byteLength >= 8_000_000));
  const normal = largeBatch(40 * 1024, 11);
  const answers = await Promise.all([
    ...nested.map((rawBody) => postIngest(t.app, null, { key, rawBody })),
    postIngest(t.app, normal, { key }),
  ]);
  const bodies = await Promise.all(answers.map((a) => a.json().catch(() => null)));
  assert.deepEqual(answers.map((a) => a.status), [400, 400, 400, 400, 204]);
  for (const body of bodies.slice(0, 4)) {
    assert.equal(body.kind, "validation");
    assert.match(body.message, new RegExp(`deeper than ${MAX_JSON_NESTING} levels`));
  }
  assert.equal(pool.bytesInFlight, 0);
  const stored = await t.db.kysely.selectFrom("event_batches").select("session_external_id")
    .execute();
  assert.deepEqual(stored.map((row) => row.session_external_id), [normal.sessionId]);
});

Deno.test("ingest: a body at the nesting limit is decoded; one level more is a 400", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  // The envelope opens 4 levels ({, events [, the event {, data) before the payload's own.
  const at = (levels: number) => {
    const payload = "[".repeat(levels) + "]".repeat(levels);
    return `{"sessionId":"${crypto.randomUUID()}","events":[{"type":5,"timestamp":${T0},` +
      `"data":{"tag":"x","payload":${payload}}}]}`;
  };
  const ok = await postIngest(t.app, null, { key, rawBody: at(MAX_JSON_NESTING - 4) });
  assert.equal(ok.status, 204, await ok.text());
  const over = await postIngest(t.app, null, { key, rawBody: at(MAX_JSON_NESTING - 3) });
  assert.equal(over.status, 400);
  assert.match((await over.json()).message, /deeper than/);
});

Deno.test("ingest: 400,000 events are one 400 naming `events`, not an issue each", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const events = '{"type":0,"timestamp":0},'.repeat(399_999) + '{"type":0,"timestamp":0}';
  const rawBody = `{"sessionId":"${crypto.randomUUID()}","events":[${events}]}`;
  const res = await postIngest(t.app, null, { key, rawBody });
  assert.equal(res.status, 400);
  const body = await res.json();
  assert.deepEqual(body.issues, [{ path: "events", message: "at most 500 events per batch" }]);
});

Deno.test("ingest: 9.9 MiB of empty arrays is a 400 before parsing", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const rawBody = `{"sessionId":"${crypto.randomUUID()}","events":[${"[],".repeat(3_400_000)}[]]}`;
  const res = await postIngest(t.app, null, { key, rawBody });
  assert.equal(res.status, 400);
  assert.match((await res.json()).message, /arrays and objects \(one per 12 bytes\)/);
});

/** Timers that fire only when the test says so. */
function manualTimers() {
  const due = new Map<number, () => void>();
  let next = 1;
  const timers: PoolTimers = {
    set(callback) {
      due.set(next, callback);
      return next++;
    },
    clear: (handle) => void due.delete(handle as number),
  };
  const fireAll = () => {
    const callbacks = [...due.values()];
    due.clear();
    for (const callback of callbacks) callback();
  };
  return {
    timers,
    fireAll,
    get pending() {
      return due.size;
    },
  };
}

Deno.test("decode pool: a job past its time is ended with its worker (413); the next body is decoded", async () => {
  const clock = manualTimers();
  const pool = createDecodePool({ workers: 1, maxBytesInFlight: 64 << 20, timers: clock.timers });
  const body = jsonBytes(largeBatch(100_000, 5));
  // A first body starts the worker: a job's timer starts once a loaded worker takes it.
  assert.equal((await pool.decode({ bytes: body.slice() }, "a")).eventCount, 3);
  assert.equal(clock.pending, 0, "an answered job's timer is cleared");
  const slow = pool.decode({ bytes: body.slice() }, "a");
  assert.equal(clock.pending, 1, "the job's timer is set when a worker takes it");
  // The worker cannot have answered: its reply is a message this thread has not yet read.
  clock.fireAll();
  await assert.rejects(slow, (error: Error & { kind?: string }) => {
    assert.equal(error.kind, "payload_too_large");
    assert.match(error.message, new RegExp(`over ${DECODE_JOB_TIMEOUT_MS} ms`));
    return true;
  });
  assert.equal(pool.bytesInFlight, 0);
  const next = await pool.decode({ bytes: body.slice() }, "a");
  assert.equal(next.eventCount, 3);
  assert.equal(clock.pending, 0);
});
