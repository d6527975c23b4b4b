import assert from "node:assert/strict";
import {
  KEYFRAME_WORK_MS,
  keyframeDue,
  KeyframeList,
  nextStepSize,
  STEP_TARGET_MS,
  stepEnd,
} from "./keyframe_plan.ts";

Deno.test("keyframes: a seek uses the latest keyframe strictly before its target", () => {
  const list = new KeyframeList<{ timestamp: number; name: string }>();
  assert.equal(list.before(100), null);
  for (const [timestamp, name] of [[10, "a"], [20, "b"], [35, "c"]] as const) {
    list.add({ timestamp, name });
  }
  assert.equal(list.before(10), null);
  assert.equal(list.before(11)?.name, "a");
  assert.equal(list.before(20)?.name, "a", "not one taken at the target itself");
  assert.equal(list.before(34)?.name, "b");
  assert.equal(list.before(1_000)?.name, "c");
  list.add({ timestamp: 35, name: "c2" });
  assert.deepEqual(list.items.map((k) => k.name), ["a", "b", "c2"], "same moment: the newer");
  list.clear();
  assert.equal(list.before(1_000), null);
});

const events = (types: number[], timestamps?: number[]) =>
  types.map((type, i) => ({ type, timestamp: timestamps?.[i] ?? i * 10 }));

Deno.test("keyframes: a scout step takes `size` events, stopping on a full snapshot", () => {
  const stream = events([4, 2, 3, 3, 3, 3, 4, 2, 3, 3]);
  assert.equal(stepEnd(stream, 0, 5), 1, "ends on the first full snapshot");
  assert.equal(stepEnd(stream, 2, 3), 4);
  assert.equal(stepEnd(stream, 2, 100), 7, "ends on the next full snapshot");
  assert.equal(stepEnd(stream, 8, 100), 9, "the last events");
  assert.equal(stepEnd(stream, 3, 0), 3, "at least one event");
});

Deno.test("keyframes: a step never splits events of the same timestamp", () => {
  const stream = events([3, 3, 3, 3, 3], [0, 5, 5, 5, 9]);
  assert.equal(stepEnd(stream, 0, 2), 3);
  assert.equal(stepEnd(stream, 4, 2), 4);
});

Deno.test("keyframes: step size follows the time a step took", () => {
  assert.equal(nextStepSize(40, STEP_TARGET_MS * 2), 20);
  assert.equal(nextStepSize(1, 500), 1);
  assert.equal(nextStepSize(40, STEP_TARGET_MS / 4), 80);
  assert.equal(nextStepSize(800, 0), 1_000);
  assert.equal(nextStepSize(40, STEP_TARGET_MS), 40);
});

Deno.test("keyframes: one is due after a rebuild or after enough work", () => {
  assert.ok(keyframeDue(2, 0));
  assert.ok(keyframeDue(3, KEYFRAME_WORK_MS));
  assert.ok(!keyframeDue(3, KEYFRAME_WORK_MS - 1));
});
