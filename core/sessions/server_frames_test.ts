import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { FIRST_FRAME_LIMITS } from "@/player/server_frame/first_frame.ts";
import type { FrameBatch, FrameJob } from "@/player/server_frame/frame_job.ts";
import { FramePool } from "./frame_pool.ts";
import { newFrameStats, servedFrame } from "./server_frames.ts";

const events = [
  { type: 4, timestamp: 1, data: { href: "https://x.test/", width: 800, height: 600 } },
  {
    type: 2,
    timestamp: 2,
    data: {
      initialOffset: { left: 0, top: 0 },
      node: { type: 0, childNodes: [{ type: 3, textContent: "page" }] },
    },
  },
];

/** A request for `key` whose batches count their reads and wait for `gate`. */
function request(key: string, gate: Promise<void>, job: FrameJob, reads: { count: number }) {
  return {
    key,
    job,
    batches: async function* (): AsyncGenerator<FrameBatch> {
      reads.count++;
      await gate;
      yield { span: null, bytes: [new Uint8Array(gzipSync(JSON.stringify(events)))] };
    },
    stats: newFrameStats(),
    context: {},
  };
}

const first: FrameJob = { kind: "first", limits: FIRST_FRAME_LIMITS };

Deno.test("served frames: views during a drawing wait for it; the next view is cached", async () => {
  const pool = new FramePool();
  try {
    const key = crypto.randomUUID();
    const gate = Promise.withResolvers<void>();
    const reads = { count: 0 };
    const a = request(key, gate.promise, first, reads);
    const viewA = servedFrame(pool, a);
    const viewB = servedFrame(pool, { ...a, stats: a.stats });
    gate.resolve();
    const [frameA, frameB] = await Promise.all([viewA, viewB]);
    assert.ok(frameA?.srcdoc.endsWith("page"));
    assert.equal(frameB, frameA);
    assert.equal(reads.count, 1, "one drawing for both views");
    assert.equal(await servedFrame(pool, a), frameA);
    assert.equal(reads.count, 1);
    assert.deepEqual({ views: a.stats.views, hits: a.stats.hits, drawn: a.stats.drawn }, {
      views: 3,
      hits: 1,
      drawn: 1,
    });
  } finally {
    pool.close();
  }
});

Deno.test("served frames: none past a bound is kept; none for the moment's reasons is not", async () => {
  const pool = new FramePool();
  try {
    const reads = { count: 0 };
    const tooSmall: FrameJob = { kind: "first", limits: { ...FIRST_FRAME_LIMITS, maxNodes: 1 } };
    const pastBound = request(crypto.randomUUID(), Promise.resolve(), tooSmall, reads);
    assert.equal(await servedFrame(pool, pastBound), null);
    assert.equal(await servedFrame(pool, pastBound), null);
    assert.equal(reads.count, 1, "not drawn again");
    assert.equal(pastBound.stats.hits, 1);

    // The pool closing under a job is no verdict on the recording.
    const gate = Promise.withResolvers<void>();
    const closing = request(crypto.randomUUID(), gate.promise, first, reads);
    const view = servedFrame(pool, closing);
    pool.close();
    gate.resolve();
    assert.equal(await view, null);
    assert.ok(
      (await servedFrame(pool, closing))?.srcdoc.endsWith("page"),
      "drawn when asked again",
    );
  } finally {
    pool.close();
  }
});
