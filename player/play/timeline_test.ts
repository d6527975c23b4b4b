import assert from "node:assert/strict";
import { gapAt, idleGaps, Timeline } from "./timeline.ts";

const START = 1_700_000_000_000;

Deno.test("timeline: only gaps strictly over 30 s are idle, of any event type", () => {
  const ts = [0, 30_000, 60_001, 61_000, 100_000].map((t) => START + t);
  assert.deepEqual(idleGaps(ts, START), [
    { start: 30_000, end: 60_001 },
    { start: 61_000, end: 100_000 },
  ]);
  assert.deepEqual(idleGaps([START, START + 30_000], START), []);
  assert.deepEqual(idleGaps([START + 10, START + 40_011], START), [{ start: 10, end: 40_011 }]);
});

Deno.test("timeline: a player whose 0 is after the first event has no gap before its 0", () => {
  // A public link's window: its events start at an earlier snapshot, 90 s before its 0.
  const ts = [-90_000, -50_000, -1_000, 40_000, 40_500].map((t) => START + t);
  assert.deepEqual(idleGaps(ts, START), [{ start: 0, end: 40_000 }]);
  assert.deepEqual(idleGaps([START - 40_000, START], START), []);
  assert.deepEqual(idleGaps([START - 40_000, START + 1], START), [{ start: 0, end: 1 }]);
});

Deno.test("timeline: swagger-ui's 43.6 s gap shows as 5 s, so the total loses 38.6 s", () => {
  const gaps = [{ start: 36_151, end: 36_151 + 43_637 }];
  const timeline = new Timeline(gaps, 117_158, true);
  assert.equal(timeline.displayDuration, 117_158 - 38_637);
  assert.equal(timeline.toDisplay(36_151), 36_151);
  assert.equal(timeline.toDisplay(36_151 + 43_637), 36_151 + 5_000);
  // Half-way through the gap is half-way through its 5 s.
  assert.equal(timeline.toDisplay(36_151 + 43_637 / 2), 36_151 + 2_500);
  assert.equal(timeline.toReal(36_151 + 2_500), 36_151 + 43_637 / 2);
  assert.equal(timeline.toReal(117_158 - 38_637), 117_158);
});

Deno.test("timeline: toReal inverts toDisplay across several gaps; off means identity", () => {
  const gaps = [{ start: 1_000, end: 41_000 }, { start: 50_000, end: 150_000 }];
  const on = new Timeline(gaps, 200_000, true);
  for (const real of [0, 999, 1_000, 20_000, 41_000, 45_000, 50_000, 99_999, 150_000, 200_000]) {
    assert.ok(Math.abs(on.toReal(on.toDisplay(real)) - real) < 1e-6, `real ${real}`);
  }
  assert.equal(on.displayDuration, 200_000 - 35_000 - 95_000);
  const off = new Timeline(gaps, 200_000, false);
  assert.equal(off.toDisplay(77_777), 77_777);
  assert.equal(off.toReal(77_777), 77_777);
  assert.equal(off.displayDuration, 200_000);
});

Deno.test("timeline: the gap at a moment includes its start, not its end", () => {
  const gaps = [{ start: 10, end: 50_000 }];
  assert.equal(gapAt(gaps, 9), null);
  assert.deepEqual(gapAt(gaps, 10), gaps[0]);
  assert.equal(gapAt(gaps, 50_000), null);
  assert.equal(Timeline.gapSpeed(gaps[0], 2), 2 * 49_990 / 5_000);
});

Deno.test("timeline: a step moves real time, across or into a gap, held at both ends", () => {
  // Idle from 0:20 to 2:25: on the bar it is 0:20–0:25.
  const timeline = new Timeline([{ start: 20_000, end: 145_000 }], 200_000, true);
  assert.equal(timeline.step(5_000, 5_000), 10_000);
  assert.equal(timeline.step(18_000, 5_000), 23_000);
  assert.equal(timeline.step(147_000, -5_000), 142_000);
  assert.equal(timeline.step(4_999, -5_000), 0);
  assert.equal(timeline.step(5_000, -5_000), 0);
  assert.equal(timeline.step(5_001, -5_000), 1);
  assert.equal(timeline.step(194_999, 5_000), 199_999);
  assert.equal(timeline.step(195_000, 5_000), 200_000);
  assert.equal(timeline.step(195_001, 5_000), 200_000);
  // The bar's 0:30 is real 2:30, the bar's 0:22.5 half-way through the idle stretch.
  assert.equal(timeline.toReal(30_000), 150_000);
  assert.equal(timeline.toReal(22_500), 82_500);
});
