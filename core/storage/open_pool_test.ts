// Opening sealed batches in the worker (open_pool.ts): a read of at least OPEN_IN_WORKER_BYTES
// goes to it (its buffer transferred, not copied), a smaller one opens on the main thread, both
// alike: a tampered or moved batch is null, counted and logged as `storage:open:failed`; the
// worker ends with the app's deps, after which reads open on the main thread.
import assert from "node:assert/strict";
import { captureLogs } from "@/log.ts";
import { loadConfig } from "@/config.ts";
import { createDeps } from "@/core/deps.ts";
import type { Db } from "@/db/client.ts";
import { newDataKey } from "./keys.ts";
import { SEAL_OVERHEAD, sealBatch } from "./seal.ts";
import { OPEN_IN_WORKER_BYTES, OpenPool } from "./open_pool.ts";
import { keyOpener, resolveBytes, type SealedRead } from "./read.ts";
import type { ObjectStore, SealCounts } from "@/db/object_store.ts";

const SESSION = { id: "id-1", project_id: "p1", external_id: "s1" };
const PLACE = { projectId: SESSION.project_id, sessionExternalId: SESSION.external_id };

/** Batches of `sizes` sealed bytes each, packed in one buffer as a read gives them. */
async function packed(key: CryptoKey, sizes: number[]) {
  const plain = sizes.map((size) => crypto.getRandomValues(new Uint8Array(size - SEAL_OVERHEAD)));
  const sealed = await Promise.all(
    plain.map((bytes, i) => sealBatch(key, { ...PLACE, batchId: i + 1 }, bytes)),
  );
  const buffer = new ArrayBuffer(sizes.reduce((sum, size) => sum + size, 0));
  let at = 0;
  const reads: SealedRead[] = sealed.map((bytes, i) => {
    new Uint8Array(buffer, at).set(bytes);
    const read = { id: i + 1, bytes: new Uint8Array(buffer, at, bytes.length) };
    at += bytes.length;
    return read;
  });
  return { plain, buffer, reads };
}

/** A session's opener under `key` with `pool`, and the counts of what did not open. */
function opener(pool: OpenPool, key: CryptoKey) {
  const seals: SealCounts = {
    unreadable: { decrypt: 0, no_key: 0, unwrap: 0 },
    checks: { ok: 0, failed: 0 },
    uploads: 0,
  };
  return { seals, open: keyOpener(() => Promise.resolve(key), seals, SESSION, pool) };
}

Deno.test("open pool: a read of OPEN_IN_WORKER_BYTES or more opens in the worker, its buffer transferred; less opens here", async () => {
  using pool = Object.assign(new OpenPool(), { [Symbol.dispose]: () => pool.close() });
  const key = await newDataKey();
  const { open } = opener(pool, key);
  const T = OPEN_IN_WORKER_BYTES;
  for (
    const [sizes, inWorker] of [
      [[T - 1], false],
      [[T], true],
      [[T + 1], true],
      [[T / 2, T / 2 - 1], false],
      [[T / 2, T / 2], true],
    ] as Array<[number[], boolean]>
  ) {
    const { plain, buffer, reads } = await packed(key, sizes);
    const jobs = pool.jobs;
    assert.deepEqual(await Promise.all(open(reads, buffer)), plain, `${sizes}`);
    assert.equal(pool.jobs - jobs, inWorker ? 1 : 0, `${sizes}: in the worker`);
    // Handed over, not copied: the read's buffer is gone from here.
    assert.equal(buffer.byteLength === 0, inWorker, `${sizes}: transferred`);
  }
  // A buffer the opener may not take (a read's part) opens here, whatever its size.
  const { plain, reads } = await packed(key, [T + 1]);
  const jobs = pool.jobs;
  assert.deepEqual(await Promise.all(open(reads, null)), plain);
  assert.equal(pool.jobs, jobs);
  assert.equal(pool.started, 1);
});

Deno.test("open pool: a replay's read of adjacent sealed ranges is one GET whose buffer goes to the worker whole", async () => {
  using pool = Object.assign(new OpenPool(), { [Symbol.dispose]: () => pool.close() });
  const key = await newDataKey();
  const { open } = opener(pool, key);
  const { plain, buffer, reads } = await packed(key, [
    OPEN_IN_WORKER_BYTES / 2,
    OPEN_IN_WORKER_BYTES / 2,
    1000,
  ]);
  const gets: number[][] = [];
  const store = {
    getRange: (_: string, offset: number, length: number) => {
      gets.push([offset, length]);
      return Promise.resolve(new Uint8Array(buffer.slice(offset, offset + length)));
    },
  } as unknown as ObjectStore;
  const at = (i: number) => reads[i].bytes.byteOffset;
  const ranges = new Map(reads.map((r, i) => [r.id, {
    key: "day/1",
    offset: at(i),
    length: r.bytes.length,
    sealed: true,
  }]));
  const out = await resolveBytes(store, ranges, open);
  assert.deepEqual(gets, [[0, buffer.byteLength]]);
  assert.deepEqual(await Promise.all([...out.keys()].sort().map((id) => out.get(id))), plain);
  assert.equal(pool.jobs, 1);
});

Deno.test("open pool: a tampered or moved batch fails in the worker as it does here: null, counted, logged", async () => {
  const logs = await captureLogs();
  using pool = Object.assign(new OpenPool(), { [Symbol.dispose]: () => pool.close() });
  const key = await newDataKey();
  const T = OPEN_IN_WORKER_BYTES;
  for (const [size, inWorker] of [[T / 2, true], [T / 4, false]] as Array<[number, boolean]>) {
    const { seals, open } = opener(pool, key);
    const { plain, buffer, reads } = await packed(key, [size, size, size]);
    reads[1].bytes[size - 1] ^= 1; // its tag altered
    reads[2] = { ...reads[2], id: 9 }; // another batch's place
    const jobs = pool.jobs;
    logs.length = 0;
    assert.deepEqual(await Promise.all(open(reads, buffer)), [plain[0], null, null]);
    assert.equal(pool.jobs - jobs, inWorker ? 1 : 0);
    assert.deepEqual(seals.unreadable, { decrypt: 2, no_key: 0, unwrap: 0 });
    assert.deepEqual(
      // Each batch reports as it settles: in any order.
      logs.filter((l) => l.tag === "storage:open:failed").map((l) => l.props)
        .sort((a, b) => Number(a?.batchId) - Number(b?.batchId)),
      [2, 9].map((batchId) => ({ reason: "decrypt", sessionId: SESSION.id, batchId })),
    );
    // The key is never in a log line.
    const raw = new Uint8Array(await crypto.subtle.exportKey("raw", key)).toBase64();
    assert.ok(!JSON.stringify(logs).includes(raw));
  }
});

Deno.test("open pool: the worker ends with the app's deps; reads then open on the main thread", async () => {
  const deps = createDeps(loadConfig({ NODE_ENV: "test" }), {} as Db);
  const key = await newDataKey();
  const { open } = opener(deps.opens, key);
  const first = await packed(key, [OPEN_IN_WORKER_BYTES]);
  assert.deepEqual(await Promise.all(open(first.reads, first.buffer)), first.plain);
  assert.equal(deps.opens.started, 1);
  deps.close();
  assert.ok(deps.opens.closed);
  assert.equal(deps.opens.workers, 0);
  const after = await packed(key, [OPEN_IN_WORKER_BYTES]);
  assert.deepEqual(await Promise.all(open(after.reads, after.buffer)), after.plain);
  assert.equal(deps.opens.jobs, 1);
  assert.equal(deps.opens.started, 1, "no worker started after the app ended");
});

Deno.test("open pool: each batch is answered as it opens; a job failing half-way fails only the batches not answered", async () => {
  using pool = Object.assign(new OpenPool(), { [Symbol.dispose]: () => pool.close() });
  const key = await newDataKey();
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", key));
  const { plain, buffer, reads } = await packed(key, [OPEN_IN_WORKER_BYTES, OPEN_IN_WORKER_BYTES]);
  const items = reads.map((r) => ({
    batchId: r.id,
    offset: r.bytes.byteOffset,
    length: r.bytes.length,
  }));
  // A third item past the buffer's end: the worker cannot view it and fails the job there.
  items.push({ batchId: 3, offset: buffer.byteLength, length: 1 });
  const inline = () => items.map(() => Promise.reject(new Error("not inline")));
  const opened = pool.open(raw, PLACE, buffer, items, inline);
  assert.deepEqual(await Promise.all(opened.slice(0, 2)), plain);
  await assert.rejects(opened[2], /opening sealed batches: RangeError/);
});
