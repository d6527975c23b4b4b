import assert from "node:assert/strict";
import { clock } from "./format.ts";

Deno.test("format: clock positions", () => {
  assert.equal(clock(0), "0:00");
  assert.equal(clock(78_579), "1:18");
  assert.equal(clock(3_725_000), "1:02:05");
  assert.equal(clock(-5), "0:00");
});
