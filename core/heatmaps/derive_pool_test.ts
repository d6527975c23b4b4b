// The derive worker (derive_pool.ts): a session's batches read there give the share the same code
// gives inline; a batch that does not inflate fails its session alone (the worker reads the next);
// closing the pool fails what it was reading as DeriveWorkerEnded (the session stays queued), and
// sessions begun after are read inline.
import assert from "node:assert/strict";
import { DERIVE_BOUNDS, ShareReader } from "./share_reader.ts";
import { DerivePool, DeriveWorkerEnded } from "./derive_pool.ts";
import { click, meta, NODE, snapshot } from "@/tests/helpers/heatmap_recording.ts";

const T = Date.UTC(2026, 10, 20, 12);
const WIDE = { href: "https://shop.test/orders/77", width: 1280, height: 800, start: T };

async function gzip(events: unknown[]): Promise<Uint8Array> {
  const stream = new Blob([JSON.stringify(events)]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const batches = () =>
  Promise.all([
    gzip([meta(WIDE), snapshot(T + 1), click(NODE.buy, 128, 40, T + 100)]),
    gzip([click(NODE.second, 300, 40, T + 2_000)]),
  ]);

function usingPool() {
  const pool = new DerivePool();
  return Object.assign(pool, { [Symbol.dispose]: () => pool.close() });
}

Deno.test("derive pool: the worker's share is the inline reader's", async () => {
  using pool = usingPool();
  const job = pool.begin();
  const inline = new ShareReader(DERIVE_BOUNDS);
  for (const bytes of await batches()) {
    const read = await job.push(bytes);
    assert.deepEqual(read, await inline.push(bytes));
  }
  const done = await job.finish();
  assert.equal(done.clicks, 2);
  assert.deepEqual(done, inline.share());
  assert.equal(pool.jobs, 1);
});

Deno.test("derive pool: a batch that does not inflate fails its session alone", async () => {
  using pool = usingPool();
  const bad = pool.begin();
  await assert.rejects(bad.push(new Uint8Array([1, 2, 3])), /deriving a heatmap share/);
  const good = pool.begin();
  for (const bytes of await batches()) await good.push(bytes);
  assert.equal((await good.finish()).clicks, 2);
  assert.equal(pool.jobs, 2);
});

Deno.test("derive pool: closed, what it was reading fails as DeriveWorkerEnded; later sessions read inline", async () => {
  using pool = usingPool();
  const [first, second] = await batches();
  const job = pool.begin();
  const pushed = job.push(first);
  pool.close();
  await assert.rejects(pushed, DeriveWorkerEnded);
  const after = pool.begin();
  await after.push(first);
  await after.push(second);
  assert.equal((await after.finish()).clicks, 2);
  assert.equal(pool.jobs, 1); // only the first went to a worker
});
