import assert from "node:assert/strict";
import {
  formatDuration,
  formatExact,
  formatRelative,
  pathnameOf,
  titleText,
  traitsSummary,
  withoutBidiControls,
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

/** Every bidirectional control of Unicode (Bidi_Control), written out one by one. */
const BIDI_CONTROLS = [
  "\u061C", // ARABIC LETTER MARK
  "\u200E", // LEFT-TO-RIGHT MARK
  "\u200F", // RIGHT-TO-LEFT MARK
  "\u202A", // LEFT-TO-RIGHT EMBEDDING
  "\u202B", // RIGHT-TO-LEFT EMBEDDING
  "\u202C", // POP DIRECTIONAL FORMATTING
  "\u202D", // LEFT-TO-RIGHT OVERRIDE
  "\u202E", // RIGHT-TO-LEFT OVERRIDE
  "\u2066", // LEFT-TO-RIGHT ISOLATE
  "\u2067", // RIGHT-TO-LEFT ISOLATE
  "\u2068", // FIRST STRONG ISOLATE
  "\u2069", // POP DIRECTIONAL ISOLATE
];

Deno.test("format: visitor text loses each bidirectional control, and nothing next to them", () => {
  assert.equal(new Set(BIDI_CONTROLS).size, 12);
  for (const control of BIDI_CONTROLS) {
    const name = `U+${control.codePointAt(0)!.toString(16).toUpperCase()}`;
    assert.equal(withoutBidiControls(`Eve ${control}gnp.exe`), "Eve gnp.exe", name);
    assert.equal(traitsSummary({ name: `a${control}b` }), "name: ab", name);
    assert.equal(titleText(`a${control}b`), "ab", name);
  }
  assert.equal(withoutBidiControls(BIDI_CONTROLS.join("x")), "x".repeat(11));
  // The characters on either side of each range are kept.
  for (
    const kept of [
      "\u061B",
      "\u061D",
      "\u200B",
      "\u200D",
      "\u2010",
      "\u2029",
      "\u202F",
      "\u2065",
      "\u206A",
    ]
  ) assert.equal(withoutBidiControls(`a${kept}b`), `a${kept}b`, kept.codePointAt(0)!.toString(16));
});

Deno.test("format: a title holds at most 60 characters of visitor text, cut with an ellipsis", () => {
  assert.equal(titleText("t".repeat(59)), "t".repeat(59));
  assert.equal(titleText("t".repeat(60)), "t".repeat(60));
  assert.equal(titleText("t".repeat(61)), "t".repeat(59) + "…");
  assert.equal(titleText("t".repeat(61)).length, 60);
  // Counted without the controls: 60 characters and a control are not cut.
  assert.equal(titleText("t".repeat(60) + "\u202E"), "t".repeat(60));
});
