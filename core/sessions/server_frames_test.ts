import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { FIRST_FRAME_LIMITS } from "@/recording/model/first_frame.ts";
import type { FrameBatch, FrameJob } from "@/core/sessions/frame_job.ts";
import { ServerFrames } from "./server_frames.ts";

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
    context: {},
  };
}

const first: FrameJob = { kind: "first", limits: FIRST_FRAME_LIMITS };

Deno.test("served frames: views during a drawing wait for it; the next view is cached", async () => {
  const frames = new ServerFrames();
  try {
    const key = crypto.randomUUID();
    const gate = Promise.withResolvers<void>();
    const reads = { count: 0 };
    const a = request(key, gate.promise, first, reads);
    const viewA = frames.serve(a);
    const viewB = frames.serve({ ...a });
    gate.resolve();
    const [frameA, frameB] = await Promise.all([viewA, viewB]);
    assert.ok(frameA?.srcdoc.endsWith("page"));
    assert.equal(frameB, frameA);
    assert.equal(reads.count, 1, "one drawing for both views");
    assert.equal(await frames.serve(a), frameA);
    assert.equal(reads.count, 1);
    const { views, hits, drawn } = frames.stats.first;
    assert.deepEqual({ views, hits, drawn }, {
      views: 3,
      hits: 1,
      drawn: 1,
    });
  } finally {
    frames.close();
  }
});

Deno.test("served frames: none past a bound is kept; none for the moment's reasons is not", async () => {
  const frames = new ServerFrames();
  try {
    const reads = { count: 0 };
    const tooSmall: FrameJob = { kind: "first", limits: { ...FIRST_FRAME_LIMITS, maxNodes: 1 } };
    const pastBound = request(crypto.randomUUID(), Promise.resolve(), tooSmall, reads);
    assert.equal(await frames.serve(pastBound), null);
    assert.equal(await frames.serve(pastBound), null);
    assert.equal(reads.count, 1, "not drawn again");
    assert.equal(frames.stats.first.hits, 1);

    // The pool closing under a job is no verdict on the recording.
    const gate = Promise.withResolvers<void>();
    const closing = request(crypto.randomUUID(), gate.promise, first, reads);
    const view = frames.serve(closing);
    frames.close();
    gate.resolve();
    assert.equal(await view, null);
    assert.ok(
      (await frames.serve(closing))?.srcdoc.endsWith("page"),
      "drawn when asked again",
    );
  } finally {
    frames.close();
  }
});
