import assert from "node:assert/strict";
import {
  formatDuration,
  formatExact,
  formatRelative,
  pathnameOf,
  traitsSummary,
} from "./format.ts";

Deno.test("format: durations read in seconds, minutes, hours and days", () => {
  assert.equal(formatDuration(0), "0 s");
  assert.equal(formatDuration(45_400), "45 s");
  assert.equal(formatDuration(185_000), "3 min 05 s");
  assert.equal(formatDuration(2 * 3_600_000 + 4 * 60_000), "2 h 04 min");
  assert.equal(formatDuration(50 * 3_600_000), "2 d 2 h");
});

Deno.test("format: relative times say how long ago, exact ones name UTC on the server", () => {
  const now = new Date("2026-03-12T14:00:00.000Z");
  assert.equal(formatRelative("2026-03-12T13:59:55.000Z", now), "just now");
  assert.equal(formatRelative("2026-03-12T13:57:00.000Z", now), "3 minutes ago");
  assert.equal(formatRelative("2026-03-11T14:00:00.000Z", now), "yesterday");
  assert.equal(formatExact("2026-03-12T14:05:09.000Z", "UTC"), "12 Mar 2026, 14:05:09 UTC");
});

Deno.test("format: pathnames of URLs and short trait lines", () => {
  assert.equal(pathnameOf("https://shop.test/cart?x=1"), "/cart");
  assert.equal(pathnameOf("not a url"), "not a url");
  assert.equal(pathnameOf(null), "—");
  assert.equal(traitsSummary({ plan: "pro", seats: 4, empty: "" }), "plan: pro · seats: 4");
  assert.equal(traitsSummary({ a: 1, b: 2, c: 3, d: 4 }, 2), "a: 1 · b: 2 · +2 more");
});
