import assert from "node:assert/strict";
import {
  KEYFRAME_WORK_MS,
  keyframeDue,
  KeyframeList,
  nextSegment,
  nextStepSize,
  segments,
  STEP_TARGET_MS,
  stepEnd,
} from "./keyframe_plan.ts";

Deno.test("keyframes: a seek uses the latest keyframe strictly before its target", () => {
  const list = new KeyframeList<{ timestamp: number; base: number; name: string }>();
  assert.equal(list.before(100), null);
  for (const [timestamp, name] of [[20, "b"], [35, "c"], [10, "a"]] as const) {
    list.add({ timestamp, base: 0, name });
  }
  assert.equal(list.before(10), null);
  assert.equal(list.before(11)?.name, "a");
  assert.equal(list.before(20)?.name, "a", "not one taken at the target itself");
  assert.equal(list.before(34)?.name, "b");
  assert.equal(list.before(1_000)?.name, "c");
  list.add({ timestamp: 35, base: 0, name: "c2" });
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

Deno.test("keyframes: a seek skips a keyframe of an earlier page than its target's", () => {
  const list = new KeyframeList<{ timestamp: number; base: number }>();
  list.add({ timestamp: 40, base: 0 });
  assert.equal(list.before(100, 50), null, "rrweb rebuilds the page starting at 50 anyway");
  assert.equal(list.before(100, 0)?.timestamp, 40);
  list.add({ timestamp: 60, base: 50 });
  assert.equal(list.before(100, 50)?.timestamp, 60);
});

Deno.test("keyframes: events arriving before a keyframe's page keep it; one it missed drops it", () => {
  const list = new KeyframeList<{ timestamp: number; base: number }>();
  for (const timestamp of [1_000, 1_500, 2_000]) list.add({ timestamp, base: 1_000 });
  list.add({ timestamp: 2_600, base: 2_500 });
  // The batches before the moment a replay opened at: all before the first keyframe's page.
  list.dropStale([0, 10, 400, 999]);
  assert.deepEqual(list.items.map((k) => k.timestamp), [1_000, 1_500, 2_000, 2_600]);
  // A late event at 1,700 belongs to the page from 1,000: the keyframes after it missed it.
  list.dropStale([1_700]);
  assert.deepEqual(list.items.map((k) => k.timestamp), [1_000, 1_500, 2_600]);
  list.dropStale([2_600]);
  assert.deepEqual(list.items.map((k) => k.timestamp), [1_000, 1_500], "one at its own moment");
});

// Three pages: Meta (4) and full snapshot (2) at 0, 100 and 200, two mutations (3) after each.
const pages = events([4, 2, 3, 3, 4, 2, 3, 3, 4, 2, 3, 3], [
  0,
  0,
  10,
  20,
  100,
  100,
  110,
  120,
  200,
  200,
  210,
  220,
]);

Deno.test("keyframes: the stream splits into pages at each Meta", () => {
  assert.deepEqual(segments(pages), [
    { start: 0, end: 4 },
    { start: 4, end: 8 },
    { start: 8, end: 12 },
  ]);
  assert.deepEqual(segments(events([3, 3, 4, 2])), [{ start: 2, end: 4 }], "none before a Meta");
});

Deno.test("keyframes: built from the viewer's page, then the pages ahead, then those behind", () => {
  const all = segments(pages);
  const built = new Map<object, number>();
  const order = (focus: number) => {
    const seen: number[] = [];
    for (let s; (s = nextSegment(all, pages, focus, (meta) => built.get(meta) ?? -Infinity));) {
      seen.push(pages[s.start].timestamp);
      built.set(pages[s.start], pages[s.end - 1].timestamp);
    }
    built.clear();
    return seen;
  };
  assert.deepEqual(order(115), [100, 200, 0]);
  assert.deepEqual(order(220), [200, 100, 0], "behind: the nearest first");
  assert.deepEqual(order(0), [0, 100, 200]);
  assert.deepEqual(order(-50), [0, 100, 200], "before the first page: from the first");
});

Deno.test("keyframes: a page built to its end is not built again; a page built in part is", () => {
  const all = segments(pages);
  const built = new Map<object, number>([[pages[4], 120], [pages[8], 210]]);
  const next = (focus: number) =>
    nextSegment(all, pages, focus, (meta) => built.get(meta) ?? -Infinity);
  assert.deepEqual(next(115), all[2], "the viewer's page is done: the next one ahead");
  built.set(pages[8], 220);
  assert.deepEqual(next(115), all[0]);
  built.set(pages[0], 20);
  assert.equal(next(115), null);
  assert.equal(next(0), null);
});
