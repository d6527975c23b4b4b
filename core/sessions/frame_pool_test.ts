import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { FIRST_FRAME_LIMITS } from "@/recording/model/first_frame.ts";
import type { FrameBatch } from "@/core/sessions/frame_job.ts";
import { FramePool, type FrameTimers } from "./frame_pool.ts";

const first = { kind: "first", limits: FIRST_FRAME_LIMITS } as const;
const BUDGET = first.limits.maxMs;

/** Timers that fire only when the test says. */
function heldTimers() {
  const pending = new Map<number, () => void>();
  let next = 1;
  const timers: FrameTimers = {
    set: (callback) => (pending.set(next, callback), next++),
    clear: (handle) => pending.delete(handle as number),
  };
  const fireAll = () => {
    for (const [handle, callback] of [...pending]) pending.delete(handle), callback();
  };
  return { timers, pending, fireAll };
}

/** A recording's first batch, fresh bytes each time (the pool takes them). */
async function* recording(text: string): AsyncGenerator<FrameBatch> {
  const events = [
    { type: 4, timestamp: 1, data: { href: "https://x.test/", width: 800, height: 600 } },
    {
      type: 2,
      timestamp: 2,
      data: {
        initialOffset: { left: 0, top: 0 },
        node: { type: 0, childNodes: [{ type: 3, textContent: text }] },
      },
    },
  ];
  yield { span: null, bytes: [new Uint8Array(gzipSync(JSON.stringify(events)))] };
}

/** Batches whose first read waits for `release`; `pulled` resolves when the worker asks. */
function stalled() {
  const gate = Promise.withResolvers<void>();
  const pulled = Promise.withResolvers<void>();
  const state = { closed: false };
  const batches = (async function* (): AsyncGenerator<FrameBatch> {
    try {
      pulled.resolve();
      await gate.promise;
      yield* recording("late");
    } finally {
      state.closed = true;
    }
  })();
  return { batches, pulled: pulled.promise, release: gate.resolve, state };
}

Deno.test("frame pool: a frame is drawn in the worker, started by the first job (its start no wait)", async () => {
  let now = 0;
  const pool = new FramePool({ timers: heldTimers().timers, now: () => now });
  try {
    assert.equal(pool.started, 0);
    const drawn = pool.draw(first, recording("hello"));
    now = BUDGET + 1; // the worker's code loads meanwhile
    const { frame, failure } = await drawn;
    assert.equal(failure, null);
    assert.ok(frame?.srcdoc.endsWith("hello"));
    assert.deepEqual([frame?.width, frame?.height], [800, 600]);
    assert.equal(pool.started, 1);
  } finally {
    pool.close();
  }
});

Deno.test("frame pool: a job past its budget is abandoned with its worker; a fresh one draws the next", async () => {
  const held = heldTimers();
  const pool = new FramePool({ timers: held.timers });
  try {
    const stuck = stalled();
    const abandoned = pool.draw(first, stuck.batches);
    await stuck.pulled; // the worker runs the job and its budget is set
    assert.equal(held.pending.size, 1);
    held.fireAll();
    assert.deepEqual(await abandoned, { frame: null, failure: "too-slow", events: 0 });
    assert.equal(pool.abandoned, 1);
    stuck.release();
    const next = await pool.draw(first, recording("next"));
    assert.ok(next.frame?.srcdoc.endsWith("next"));
    assert.equal(pool.started, 2, "the abandoned worker was replaced");
    // Released, the stalled read ends within microtasks, before the fresh worker's first message.
    assert.ok(stuck.state.closed, "the abandoned job's reads were let go");
  } finally {
    pool.close();
  }
});

Deno.test("frame pool: jobs run in turn; one that waited past the budget for its turn is not started", async () => {
  const held = heldTimers();
  let now = 0;
  const pool = new FramePool({ timers: held.timers, now: () => now });
  try {
    const stuck = stalled();
    const running = pool.draw(first, stuck.batches);
    await stuck.pulled;
    const late = pool.draw(first, recording("late")); // queued at 0
    now = 1;
    const onTime = pool.draw(first, recording("on time")); // queued at 1
    assert.equal(pool.queued, 2);
    now = BUDGET + 1; // late waited past the budget; onTime exactly the budget
    held.fireAll();
    assert.equal((await running).failure, "too-slow");
    assert.deepEqual(await late, { frame: null, failure: "busy", events: 0 });
    assert.ok((await onTime).frame?.srcdoc.endsWith("on time"));
    stuck.release();
  } finally {
    pool.close();
  }
});

Deno.test("frame pool: close ends the worker and answers the jobs still there", async () => {
  const pool = new FramePool({ timers: heldTimers().timers });
  const stuck = stalled();
  const running = pool.draw(first, stuck.batches);
  await stuck.pulled;
  const queued = pool.draw(first, recording("never"));
  pool.close();
  assert.equal((await running).failure, "closed");
  assert.equal((await queued).failure, "closed");
  stuck.release();
});
