import assert from "node:assert/strict";
import { clock, duration } from "./format.ts";

Deno.test("format: clock positions", () => {
  assert.equal(clock(0), "0:00");
  assert.equal(clock(78_579), "1:18");
  assert.equal(clock(3_725_000), "1:02:05");
  assert.equal(clock(-5), "0:00");
});

Deno.test("format: durations", () => {
  assert.equal(duration(450), "450 ms");
  assert.equal(duration(43_637), "43.6 s");
  assert.equal(duration(5_000), "5 s");
  assert.equal(duration(125_000), "2 min 5 s");
  assert.equal(duration(3_900_000), "1 h 5 min");
});
