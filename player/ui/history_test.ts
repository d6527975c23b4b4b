import assert from "node:assert/strict";
import { activeRow, buildHistory, signalText } from "./history.ts";

const START = 1_700_000_000_000;
const url = (t: number, path: string) => ({
  timestamp: START + t,
  kind: "url",
  data: { url: `https://shop.test${path}?q=1`, pathname: path },
});

Deno.test("history: sections chain head to tail; the start url names the init section", () => {
  const markers = [url(20_000, "/cart"), url(0, "/"), url(50_000, "/pay")];
  const sections = buildHistory(markers, [], START, 90_000);
  assert.deepEqual(
    sections.map((s) => [s.kind, s.label, s.start, s.duration]),
    [
      ["init", "Session start · /", 0, 20_000],
      ["navigation", "/cart", 20_000, 30_000],
      ["navigation", "/pay", 50_000, 40_000],
    ],
  );
  assert.equal(sections[1].url, "https://shop.test/cart?q=1");
  for (let i = 1; i < sections.length; i++) {
    assert.equal(sections[i - 1].start + sections[i - 1].duration, sections[i].start);
  }
});

Deno.test("history: without a start url the init section stands alone", () => {
  const sections = buildHistory([url(5_000, "/a")], [], START, 10_000);
  assert.deepEqual(sections.map((s) => [s.label, s.start, s.duration]), [
    ["Session start", 0, 5_000],
    ["/a", 5_000, 5_000],
  ]);
});

Deno.test("history: idle and identify markers nest in their section with real durations", () => {
  const identity = { timestamp: START + 30_000, kind: "identity", data: { userId: "u-42" } };
  const gaps = [{ start: 36_151, end: 79_788 }];
  const sections = buildHistory([url(0, "/"), url(20_000, "/b"), identity], gaps, START, 117_158);
  assert.deepEqual(sections[0].markers, []);
  assert.deepEqual(sections[1].markers, [
    { kind: "identify", label: "u-42", start: 30_000, duration: 0 },
    { kind: "idle", label: "Idle 44 s", start: 36_151, duration: 43_637 },
  ]);
});

Deno.test("history: exactly one row is active; a covering marker wins over its section", () => {
  const gaps = [{ start: 40_000, end: 80_000 }];
  const sections = buildHistory([url(0, "/"), url(20_000, "/b")], gaps, START, 100_000);
  assert.deepEqual(activeRow(sections, 0), { section: 0, marker: null });
  assert.deepEqual(activeRow(sections, 19_999), { section: 0, marker: null });
  assert.deepEqual(activeRow(sections, 20_000), { section: 1, marker: null });
  assert.deepEqual(activeRow(sections, 40_000), { section: 1, marker: 0 });
  assert.deepEqual(activeRow(sections, 79_999), { section: 1, marker: 0 });
  assert.deepEqual(activeRow(sections, 80_000), { section: 1, marker: null });
  assert.deepEqual(activeRow(sections, 100_000), { section: 1, marker: null });
});

Deno.test("history: rage clicks, dead clicks and errors are markers with their text and selector", () => {
  const sections = buildHistory(
    [
      { timestamp: 1_000, kind: "url", data: { url: "https://a.test/", pathname: "/" } },
      {
        timestamp: 3_000,
        kind: "rage_click",
        data: { selector: "button#buy", text: "Buy now", x: 1, y: 2, clicks: 4 },
      },
      { timestamp: 4_000, kind: "dead_click", data: { selector: "a.more", text: "", x: 1, y: 2 } },
      { timestamp: 5_000, kind: "error", data: { message: "TypeError: x is undefined" } },
    ],
    [],
    1_000,
    10_000,
  );
  assert.deepEqual(sections[0].markers, [
    {
      kind: "rage_click",
      label: "4 clicks on “Buy now”",
      detail: "button#buy",
      start: 2_000,
      duration: 0,
    },
    { kind: "dead_click", label: "(no text)", detail: "a.more", start: 3_000, duration: 0 },
    {
      kind: "error",
      label: "TypeError: x is undefined",
      evidence: "TypeError: x is undefined",
      start: 4_000,
      duration: 0,
    },
  ]);
});

Deno.test("history: an error's evidence is its whole message and stack, else where it was thrown", () => {
  const long = "Checkout failed: " + "x".repeat(300);
  assert.deepEqual(
    signalText("error", {
      message: long,
      stack: "pay (https://s.test/a.js:1:2)\nhttps://s.test/a.js:9:1",
    }),
    { label: long, evidence: `${long}\npay (https://s.test/a.js:1:2)\nhttps://s.test/a.js:9:1` },
  );
  assert.deepEqual(
    signalText("error", {
      message: "Script error.",
      source: "https://s.test/a.js",
      line: 3,
      column: 7,
    }),
    { label: "Script error.", evidence: "Script error.\nat https://s.test/a.js:3:7" },
  );
});

Deno.test("history: a page's section starts at its first frame, never before its marker or after the next", () => {
  const markers = [url(0, "/"), url(20_000, "/b"), url(50_000, "/c"), url(80_000, "/d")];
  // a full snapshot 1 ms before /b's marker is the page before's; /b's first is 400 ms after its
  // marker (rrweb draws at DOMContentLoaded); /c's is exactly at its marker; /d has none, and the
  // one at /d's marker to the ms belongs to /d, not /c
  const frames = [0, 19_999, 20_400, 35_000, 50_000, 79_999, 80_000];
  const sections = buildHistory(markers, [], START, 90_000, frames);
  assert.deepEqual(sections.map((s) => [s.label, s.start, s.duration]), [
    ["Session start · /", 0, 20_400],
    ["/b", 20_400, 29_600],
    ["/c", 50_000, 30_000],
    ["/d", 80_000, 10_000],
  ]);
  const without = buildHistory(markers, [], START, 90_000, [0, 95_000]);
  assert.deepEqual(
    without.map((s) => s.start),
    [0, 20_000, 50_000, 80_000],
    "no frame: the marker",
  );
  assert.deepEqual(activeRow(sections, 20_399), { section: 0, marker: null });
  assert.deepEqual(activeRow(sections, 20_400), { section: 1, marker: null });
});

const paused = (t: number, path: string) => ({
  timestamp: START + t,
  kind: "recording_paused",
  data: { pathname: path },
});

Deno.test("history: a blocked page is a paused section from its marker to the next page's first frame", () => {
  const markers = [url(0, "/"), paused(30_000, "/admin/secret"), url(40_000, "/c")];
  const sections = buildHistory(markers, [], START, 60_000, [0, 40_250]);
  assert.deepEqual(sections.map((s) => [s.kind, s.label, s.blocked, s.start, s.duration]), [
    ["init", "Session start · /", null, 0, 30_000],
    ["paused", "/admin/secret", "/admin/secret", 30_000, 10_250],
    ["navigation", "/c", null, 40_250, 19_750],
  ]);
  assert.deepEqual(activeRow(sections, 29_999), { section: 0, marker: null });
  assert.deepEqual(activeRow(sections, 30_000), { section: 1, marker: null });
  assert.deepEqual(activeRow(sections, 40_249), { section: 1, marker: null });
  assert.deepEqual(activeRow(sections, 40_250), { section: 2, marker: null });
});

Deno.test("history: a session opened on a blocked page has its init section paused", () => {
  const sections = buildHistory([url(0, "/admin"), paused(0, "/admin")], [], START, 5_000);
  assert.deepEqual(sections.map((s) => [s.kind, s.label, s.blocked, s.start, s.duration]), [
    ["init", "Session start · /admin", "/admin", 0, 5_000],
  ]);
});
