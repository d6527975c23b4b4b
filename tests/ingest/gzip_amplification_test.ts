// A small gzip body cannot inflate into tens of MiB of work. The decompressed size is
// capped at what the SDK can produce with margin and at a plausible ratio (413 beyond), and large
// decodes run in the decode workers, so a burst of them cannot hold the process.
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { createDecodeGate } from "@/http/decode_gate.ts";
import { ALWAYS_DECODABLE_BYTES, MAX_DECODED_BYTES, MAX_GZIP_RATIO } from "@/http/body.ts";
import { decodePool } from "@/api/ingest/decode_pool.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
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

Deno.test("ingest: what the SDK sends still passes: a 2 MiB batch of padding, a 6 MiB real-looking event", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  // Up to ALWAYS_DECODABLE_BYTES any ratio is fine, however repetitive the page.
  const padded = await gzipped(batchWith(" ".repeat(2 * 1024 * 1024)));
  const small = await postIngest(t.app, null, {
    key,
    rawBody: padded,
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

Deno.test("ingest: a burst of large bodies is decoded by the workers, two at a time, each answered 204 or 503", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  // Over 64 KiB of gzip could inflate past ALWAYS_DECODABLE_BYTES, so each takes the gate.
  const bodies = Array.from(
    { length: 24 },
    (_, i) => gzipped(batchWith(realisticText(200_000, i + 1))),
  );
  assert.ok(bodies.every((b) => b.byteLength * MAX_GZIP_RATIO > ALWAYS_DECODABLE_BYTES));
  const responses = await Promise.all(
    bodies.map((rawBody) =>
      postIngest(t.app, null, { key, rawBody, headers: { "Content-Encoding": "gzip" } })
    ),
  );
  const pool = decodePool(t.deps.config.ingestDecodeWorkers)!;
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
