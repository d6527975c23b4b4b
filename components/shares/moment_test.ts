import assert from "node:assert/strict";
import { parseMoment } from "./moment.ts";

Deno.test("share dialog: moments read as m:ss or seconds; anything else is unreadable", () => {
  assert.equal(parseMoment(""), null);
  assert.equal(parseMoment("  "), null);
  assert.equal(parseMoment("0:40"), 40_000);
  assert.equal(parseMoment("1:10"), 70_000);
  assert.equal(parseMoment("70"), 70_000);
  assert.ok(Number.isNaN(parseMoment("1:60")!));
  assert.ok(Number.isNaN(parseMoment("1:5")!));
  assert.ok(Number.isNaN(parseMoment("-3")!));
  assert.ok(Number.isNaN(parseMoment("1m")!));
});
