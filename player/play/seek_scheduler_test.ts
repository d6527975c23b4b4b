import assert from "node:assert/strict";
import { type FrameClock, SeekScheduler } from "./seek_scheduler.ts";

/** Frames that fire only when the test says so. */
function manualFrames() {
  let next = 1;
  const waiting = new Map<number, () => void>();
  const clock: FrameClock = {
    request(callback) {
      waiting.set(next, callback);
      return next++;
    },
    cancel: (handle) => void waiting.delete(handle),
  };
  const frame = () => {
    const callbacks = [...waiting.values()];
    waiting.clear();
    for (const callback of callbacks) callback();
  };
  return { clock, frame, waiting };
}

Deno.test("seek scheduler: requests within one frame apply only the latest target", () => {
  const { clock, frame, waiting } = manualFrames();
  const applied: number[] = [];
  const seeks = new SeekScheduler((target) => void applied.push(target), clock);
  for (const target of [100, 2_000, 350, 7_000]) seeks.request(target);
  assert.equal(waiting.size, 1, "one frame asked for");
  assert.equal(seeks.pending, 7_000);
  assert.deepEqual(applied, []);
  frame();
  assert.deepEqual(applied, [7_000]);
  assert.equal(seeks.pending, null);
  seeks.request(42);
  frame();
  assert.deepEqual(applied, [7_000, 42]);
  frame();
  assert.deepEqual(applied, [7_000, 42], "nothing more without a request");
});

Deno.test("seek scheduler: a running seek is told it was superseded, the newer one runs", async () => {
  const { clock, frame } = manualFrames();
  const log: string[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const seeks = new SeekScheduler(async (target, superseded) => {
    log.push(`start ${target}`);
    if (target === 1) {
      await gate;
      log.push(superseded() ? "1 superseded" : "1 current");
      return;
    }
    log.push(superseded() ? `${target} superseded` : `${target} current`);
  }, clock);
  seeks.request(1);
  frame();
  assert.ok(seeks.busy);
  seeks.request(2);
  frame();
  release();
  await gate;
  await Promise.resolve();
  assert.deepEqual(log, ["start 1", "start 2", "2 current", "1 superseded"]);
  assert.equal(seeks.busy, false);
});

Deno.test("seek scheduler: cancel drops the waiting target and supersedes the running one", async () => {
  const { clock, frame } = manualFrames();
  const applied: number[] = [];
  let stillCurrent: (() => boolean) | null = null;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const seeks = new SeekScheduler(async (target, superseded) => {
    applied.push(target);
    stillCurrent = () => !superseded();
    await gate;
  }, clock);
  seeks.request(5);
  frame();
  seeks.request(6);
  seeks.cancel();
  frame();
  assert.deepEqual(applied, [5]);
  assert.equal(stillCurrent!(), false);
  release();
  await gate;
  await Promise.resolve();
  assert.equal(seeks.busy, false);
});
