// The background derivation off the main thread and bounded: sessions are read in the derive worker
// (core/heatmaps/derive_pool.ts), a session past the bounds derives its first batches and says so
// (`truncated`, a log line), and with the pool closed the same shares are read inline.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { METADATA, postIngest } from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { deriveHeatmaps } from "@/core/heatmaps/derive.ts";
import { DERIVE_POOL, DerivePool } from "@/core/heatmaps/derive_pool.ts";
import { click, meta, NODE, snapshot } from "@/tests/helpers/heatmap_recording.ts";

const T = Date.now() - 10 * 60_000;
const LATER = () => new Date(Date.now() + 3_600_000); // every queued session is due
const WIDE = { href: "https://shop.test/orders/77", width: 1280, height: 800, start: T };

async function world() {
  const t = await createTestApp();
  const w = await sessionsWorld(t, "OWNER");
  /** A session of three batches: the page and a click on Buy, then one more click in each. */
  const record = async () => {
    const sessionId = crypto.randomUUID();
    const batches = [
      [meta(WIDE), snapshot(T + 1), click(NODE.buy, 128, 40, T + 100)],
      [click(NODE.buy, 128, 40, T + 2_000)],
      [click(NODE.buy, 128, 40, T + 4_000)],
    ];
    for (const events of batches) {
      const res = await postIngest(t.app, { sessionId, events, metadata: METADATA }, {
        key: w.alpha.key,
      });
      assert.equal(res.status, 204);
    }
  };
  const buys = async () => {
    const { body } = await w.get(
      `/api/heatmaps?projectId=${w.alpha.id}&path=/orders/:id&mode=element`,
    );
    return body.elements.find((e: { selector: string }) => e.selector === "button#buy")?.count;
  };
  const pool = () => t.deps.workers.get(DERIVE_POOL, () => new DerivePool());
  return {
    t,
    record,
    buys,
    pool,
    projectId: w.alpha.id,
    [Symbol.asyncDispose]: () => t[Symbol.asyncDispose](),
  };
}

const derive = (x: Awaited<ReturnType<typeof world>>, events = Infinity) =>
  deriveHeatmaps(x.t.deps, LATER(), 100, Infinity, undefined, { events, bytes: Infinity });

Deno.test("heatmaps derive: sessions are read in the worker, one job each", async () => {
  await using x = await world();
  await x.record();
  await x.record();
  assert.deepEqual(await derive(x), { sessions: 2, clicks: 6, failed: 0, truncated: 0 });
  assert.equal(x.pool().jobs, 2);
  assert.equal(await x.buys(), 6);
});

Deno.test("heatmaps derive: a session past the bound derives its first batches and says so", async () => {
  await using x = await world();
  await x.record();
  // 3 events in the first batch, 4 with the second: the bound; the third is not read.
  assert.deepEqual(await derive(x, 4), { sessions: 1, clicks: 2, failed: 0, truncated: 1 });
  assert.equal(await x.buys(), 2);
  const said = x.t.logs.find((l) => l.tag === "heatmaps:derive:truncated");
  assert.deepEqual(said?.props, {
    projectId: x.projectId,
    batches: 2,
    events: 4,
    bytes: said?.props.bytes,
  });
  // Within the bound the whole session is read.
  await x.record();
  assert.deepEqual(await derive(x, 5), { sessions: 1, clicks: 3, failed: 0, truncated: 0 });
});

Deno.test("heatmaps derive: with the pool closed the same shares are read inline", async () => {
  await using x = await world();
  await x.record();
  x.pool().close();
  assert.deepEqual(await derive(x), { sessions: 1, clicks: 3, failed: 0, truncated: 0 });
  assert.equal(x.pool().jobs, 0);
  assert.equal(await x.buys(), 3);
});
