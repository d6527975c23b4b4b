// Large ingest bodies are decoded, validated and prepared in worker threads, not on
// the main thread; what the workers answer is what the main thread would (stored batches, 400
// issues, 413); the bytes admitted at once are budgeted, past it 503 + Retry-After at once.
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { threadId } from "node:worker_threads";
import { createDecodePool, decodePool } from "../../api/ingest/decode_pool.ts";
import { OFFLOAD_MIN_WIRE_BYTES } from "../../api/ingest/ingest_body.ts";
import { gunzipCapped } from "@/http/body.ts";
import { createTestApp } from "../helpers/app.ts";
import { insertProject } from "../helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "../helpers/ingest.ts";

const T0 = 1_760_000_000_000;

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

const gzipJson = (value: unknown) =>
  new Uint8Array(gzipSync(new TextEncoder().encode(JSON.stringify(value))));

Deno.test("ingest: large bodies are decoded on worker threads and stored as the main thread would", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const pool = decodePool(t.deps.config.ingestDecodeWorkers)!;
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

Deno.test("ingest: a worker answers a bad large body as the main thread does (400 issues, 413)", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const post = (rawBody: Uint8Array<ArrayBuffer>) =>
    postIngest(t.app, null, { key, rawBody, headers: { "Content-Encoding": "gzip" } });
  const pool = decodePool(t.deps.config.ingestDecodeWorkers)!;
  const before = pool.decoded;

  const invalid = { ...largeBatch(300_000, 7), sessionId: "not-a-uuid" };
  const bad = await post(gzipJson(invalid));
  assert.equal(bad.status, 400);
  const body = await bad.json();
  assert.equal(body.kind, "validation");
  assert.deepEqual(body.issues.map((i: { path: string }) => i.path), ["sessionId"]);

  const notJson = await post(new Uint8Array(gzipSync(new Uint8Array(200_000).fill(0x7b))));
  assert.equal(notJson.status, 400);
  assert.equal((await notJson.json()).message, "body is not valid JSON");

  // 40 KiB of gzip that would inflate far beyond its allowance (64×): 413 from the worker.
  const bomb = new Uint8Array(gzipSync(new Uint8Array(40 << 20).fill(32), { level: 9 }));
  const padded = new Uint8Array(Math.max(bomb.byteLength, OFFLOAD_MIN_WIRE_BYTES));
  padded.set(bomb);
  const tooLarge = await post(bomb.byteLength >= OFFLOAD_MIN_WIRE_BYTES ? bomb : padded);
  assert.ok([413, 400].includes(tooLarge.status), String(tooLarge.status));
  await tooLarge.body?.cancel();
  assert.ok(pool.decoded - before >= 2);
  assert.equal((await t.db.kysely.selectFrom("event_batches").select("id").execute()).length, 0);
});

Deno.test("decode pool: bytes in flight are budgeted; past the budget a body is refused at once", async () => {
  const pool = createDecodePool({ workers: 1, maxBytesInFlight: 400_000 });
  const body = gzipJson(largeBatch(400_000, 3));
  assert.ok(body.byteLength > 200_000 && body.byteLength < 400_000, String(body.byteLength));
  const first = pool.decode({ bytes: body.slice(), gzip: true }, body.byteLength);
  // A second body would take the bytes in flight past the budget: 503 with Retry-After, no wait.
  assert.throws(
    () => pool.decode({ bytes: body.slice(), gzip: true }, body.byteLength),
    (error: Error & { kind?: string; details?: unknown }) =>
      error.kind === "unavailable" && JSON.stringify(error.details) === '{"retryAfter":1}',
  );
  const prepared = await first;
  assert.equal(prepared.eventCount, 3);
  assert.equal(pool.bytesInFlight, 0);
  // Once the first is done, the next is admitted.
  assert.equal(
    (await pool.decode({ bytes: body.slice(), gzip: true }, body.byteLength)).eventCount,
    3,
  );
});
