// A small gzip body cannot inflate into tens of MiB of work. The decompressed size is
// capped at what the SDK can produce with margin and, past 256 KiB, at a ratio the corpus never
// reaches (413 beyond, counted as it inflates), and large decodes run in the decode workers, each
// key's in turn, so a burst of them cannot hold the process nor another key's batches.
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { createDecodeGate } from "@/http/decode_gate.ts";
import { ALWAYS_DECODABLE_BYTES, MAX_DECODED_BYTES, MAX_GZIP_RATIO } from "@/http/body.ts";
import { decodePoolOf } from "@/api/ingest/decode_pool.ts";
import { OFFLOAD_MIN_WIRE_BYTES } from "@/api/ingest/ingest_body.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { gzipOfSize, textOfRatio } from "@/tests/helpers/gzip_bodies.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

/** A valid batch whose one event carries `text` (as JSON) in its data. */
function batchWith(text: string): string {
  return JSON.stringify({
    sessionId: crypto.randomUUID(),
    events: [...recordedEvents(2, T0), { type: 3, data: { text: "TEXT" }, timestamp: T0 + 5000 }],
    metadata: METADATA,
  }).replace('"TEXT"', JSON.stringify(text));
}

function gzipped(json: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(gzipSync(new TextEncoder().encode(json)));
}

/** A valid batch of exactly `size` bytes of JSON: spaces after it fill the rest. */
function batchOfSize(size: number): Uint8Array {
  const json = JSON.stringify({ sessionId: crypto.randomUUID(), events: recordedEvents(3, T0) });
  return new TextEncoder().encode(json + " ".repeat(size - json.length));
}

/** Text that compresses about as poorly as canvas and media data do (a few to one). */
function realisticText(bytes: number, seed = 1): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789<>/=-";
  const out = new Array<string>(bytes);
  let x = seed;
  for (let i = 0; i < bytes; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = alphabet[(x >>> 0) % alphabet.length];
  }
  return out.join("");
}

Deno.test("ingest: a 64 KB body inflating to 63 MiB is refused with 413, nothing stored", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const bomb = await gzipped(batchWith("x".repeat(63 * 1024 * 1024)));
  assert.ok(bomb.byteLength < 128 * 1024, `${bomb.byteLength}`);
  const res = await postIngest(t.app, null, {
    key,
    rawBody: bomb,
    headers: { "Content-Encoding": "gzip" },
  });
  assert.equal(res.status, 413);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal((await res.json()).kind, "payload_too_large");
  assert.equal((await t.db.kysely.selectFrom("sessions").select("id").execute()).length, 0);
});

Deno.test("ingest: beyond the SDK's sizes, an implausible inflation ratio is 413", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  // 6 MiB of repeated text from a few KB: allowed by the absolute cap, not by the ratio.
  const json = batchWith("ab".repeat(3 * 1024 * 1024));
  const body = await gzipped(json);
  assert.ok(json.length > ALWAYS_DECODABLE_BYTES && json.length < MAX_DECODED_BYTES);
  assert.ok(json.length / body.byteLength > MAX_GZIP_RATIO);
  const res = await postIngest(t.app, null, {
    key,
    rawBody: body,
    headers: { "Content-Encoding": "gzip" },
  });
  assert.equal(res.status, 413);
});

Deno.test("ingest: what the SDK sends still passes: a 2 MiB batch compressing 42× (the corpus' most), a 6 MiB real-looking event", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const json = batchWith(textOfRatio(2 * 1024 * 1024, 42));
  const repetitive = gzipped(json);
  const ratio = json.length / repetitive.byteLength;
  assert.ok(ratio > 41 && ratio < MAX_GZIP_RATIO, String(ratio));
  const small = await postIngest(t.app, null, {
    key,
    rawBody: repetitive,
    headers: { "Content-Encoding": "gzip" },
  });
  assert.equal(small.status, 204, await small.text());
  const big = await postIngest(t.app, null, {
    key,
    rawBody: await gzipped(batchWith(realisticText(6 * 1024 * 1024))),
    headers: { "Content-Encoding": "gzip" },
  });
  assert.equal(big.status, 204, await big.text());
  assert.equal((await t.db.kysely.selectFrom("event_batches").select("id").execute()).length, 2);
});

Deno.test("ingest: past 256 KiB a gzip body inflates to at most 48× its size: at it and below it is stored, one byte past it is 413", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  // The figures of docs/decisions.md "Ingest", written out: the test holds them.
  const wire = 8 * 1024;
  const limit = wire * 48; // 384 KiB: past the 256 KiB any body may inflate to
  // A declared length is held to the ratio as the body inflates, a chunked one once it is in.
  for (const declared of [true, false]) {
    const post = (inflated: number) =>
      postIngest(t.app, null, {
        key,
        rawBody: gzipOfSize(batchOfSize(inflated), wire),
        headers: {
          "Content-Encoding": "gzip",
          ...(declared ? { "Content-Length": String(wire) } : {}),
        },
      });
    const answers = [await post(limit - 1), await post(limit), await post(limit + 1)];
    assert.deepEqual(answers.map((res) => res.status), [204, 204, 413], `declared: ${declared}`);
    const refused = await answers[2].json();
    assert.equal(refused.kind, "payload_too_large");
    assert.equal(refused.message, `decompressed body exceeds ${limit} bytes`);
  }
  assert.equal((await t.db.kysely.selectFrom("event_batches").select("id").execute()).length, 4);
});

Deno.test("ingest: up to 256 KiB a gzip body may inflate at any ratio; one byte more is held to the ratio (413)", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const wire = 1024; // ×256 at the limit, where 48× would allow 48 KiB
  const post = (inflated: number) =>
    postIngest(t.app, null, {
      key,
      rawBody: gzipOfSize(batchOfSize(inflated), wire),
      headers: { "Content-Encoding": "gzip" },
    });
  const limit = 256 * 1024;
  const answers = [await post(limit - 1), await post(limit), await post(limit + 1)];
  assert.deepEqual(answers.map((res) => res.status), [204, 204, 413]);
  assert.equal((await answers[2].json()).message, `decompressed body exceeds ${limit} bytes`);
});

Deno.test("ingest: one key's ×45 gzip bodies do not queue another key's normal batch behind them: it is stored while theirs still wait", async () => {
  await using t = await createTestApp();
  const flooding = await insertProject(t.db.kysely);
  const other = await insertProject(t.db.kysely);
  const pool = decodePoolOf(t.deps)!;
  // The probe's bodies, scaled down: 8 valid batches of 4 MiB of JSON, each 45 times its gzip.
  const text = textOfRatio(4 * 1024 * 1024, 45);
  const jsons = Array.from({ length: 8 }, () => batchWith(text));
  const bombs = jsons.map(gzipped);
  for (const [i, bomb] of bombs.entries()) {
    const ratio = jsons[i].length / bomb.byteLength;
    assert.ok(ratio > 44 && ratio < 46, String(ratio));
  }
  const before = pool.decoded;
  const flood = bombs.map((rawBody) =>
    postIngest(t.app, null, {
      key: flooding.key,
      rawBody,
      headers: { "Content-Encoding": "gzip" },
    })
  );
  // Every bomb is read and in the pool (decoded, decoding or waiting) before the normal batch.
  const inPool = () => pool.decoded - before + pool.decoding + pool.queued;
  for (let i = 0; i < 2_000 && inPool() < bombs.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(inPool(), bombs.length);
  // Only the flood is in the pool: what waits is its own.
  assert.ok(pool.queued >= 2, `${pool.queued} waiting`);

  const normal = batchWith("n".repeat(40 * 1024));
  assert.ok(normal.length >= OFFLOAD_MIN_WIRE_BYTES); // decoded in a worker too
  const res = await postIngest(t.app, null, { key: other.key, rawBody: normal });
  assert.equal(res.status, 204);
  // In one queue it would have waited for every bomb to be taken by a worker.
  assert.ok(pool.queued > 0, "the flood still waits once the batch is stored");
  assert.deepEqual((await Promise.all(flood)).map((r) => r.status), Array(8).fill(204));
});

Deno.test("ingest: a burst of large bodies is decoded by the workers, two at a time, each answered 204 or 503", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  // Over 32 KiB of gzip each: every one goes to the decode workers.
  const bodies = Array.from(
    { length: 24 },
    (_, i) => gzipped(batchWith(realisticText(200_000, i + 1))),
  );
  assert.ok(bodies.every((b) => b.byteLength >= OFFLOAD_MIN_WIRE_BYTES));
  const responses = await Promise.all(
    bodies.map((rawBody) =>
      postIngest(t.app, null, { key, rawBody, headers: { "Content-Encoding": "gzip" } })
    ),
  );
  const pool = decodePoolOf(t.deps)!;
  assert.ok(pool.peak <= 2, `${pool.peak} decoding at once`);
  for (const res of responses) {
    if (res.status === 503) {
      assert.equal(res.headers.get("retry-after"), "1");
      assert.equal(res.headers.get("access-control-allow-origin"), "*");
      assert.equal((await res.json()).kind, "unavailable");
    } else {
      assert.equal(res.status, 204);
    }
  }
  const stored = await t.db.kysely.selectFrom("event_batches").select("id").execute();
  assert.equal(stored.length, responses.filter((r) => r.status === 204).length);
});

Deno.test("decode gate: past its queue it refuses with unavailable and Retry-After instead of waiting", async () => {
  const gate = createDecodeGate({ concurrency: 1, maxQueued: 2 });
  let release!: () => void;
  const blocked = new Promise<void>((resolve) => release = resolve);
  const running = [gate.run(() => blocked), gate.run(() => 1), gate.run(() => 2)];
  await Promise.resolve();
  assert.throws(() => gate.run(() => 3), (error: Error & { kind?: string; details?: unknown }) => {
    assert.equal(error.kind, "unavailable");
    assert.deepEqual(error.details, { retryAfter: 1 });
    return true;
  });
  release();
  assert.deepEqual(await Promise.all(running), [undefined, 1, 2]);
  assert.equal(gate.peak, 1);
});
