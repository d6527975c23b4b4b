import assert from "node:assert/strict";
import {
  formatDuration,
  formatExact,
  formatRelative,
  pathnameOf,
  traitsSummary,
} from "./format.ts";

Deno.test("format: durations read in ms, seconds, minutes, hours and days", () => {
  assert.equal(formatDuration(0), "0 s");
  assert.equal(formatDuration(450), "450 ms");
  assert.equal(formatDuration(999.6), "1 s");
  assert.equal(formatDuration(45_400), "45 s");
  assert.equal(formatDuration(43_637), "44 s");
  assert.equal(formatDuration(185_000), "3 min 5 s");
  assert.equal(formatDuration(125_000), "2 min 5 s");
  assert.equal(formatDuration(119_600), "2 min");
  assert.equal(formatDuration(3_900_000), "1 h 5 min");
  assert.equal(formatDuration(2 * 3_600_000 + 4 * 60_000), "2 h 4 min");
  assert.equal(formatDuration(50 * 3_600_000), "2 d 2 h");
  assert.equal(formatDuration(72 * 3_600_000), "3 d");
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
