import assert from "node:assert/strict";
import { buildHistory } from "./history.ts";
import { pageVitals, ratingText, vitalLabel } from "./page_vitals.ts";

const START = 1_700_000_000_000;
const url = (t: number, path: string) => ({
  timestamp: START + t,
  kind: "url",
  data: { url: `https://shop.test${path}`, pathname: path },
});
const vital = (t: number, name: string, value: number, rating: string, pathname?: string) => ({
  timestamp: START + t,
  kind: "web_vital",
  data: { name, value, rating, ...(pathname ? { pathname } : {}) },
});

Deno.test("page vitals: each page gets its own five, with their ratings, in one order", () => {
  const markers = [
    url(0, "/"),
    url(10_000, "/cart"),
    // /cart's navigation started before its marker (TTFB and FCP dated from it): still /cart's
    vital(9_700, "ttfb", 120, "good", "/cart"),
    vital(9_900, "fcp", 1_900, "needs_improvement", "/cart"),
    vital(10_800, "lcp", 4_200, "poor", "/cart"),
    vital(12_000, "inp", 80, "good", "/cart"),
    vital(19_000, "cls", 0.256, "poor", "/cart"),
    // the first page's, reported as it went
    vital(9_950, "lcp", 2_100, "good", "/"),
    vital(300, "cls", 0.02, "good", "/"),
  ];
  const sections = buildHistory(markers, [], START, 20_000, [0, 10_400]);
  const shown = sections.map((s) => s.vitals.map((v) => [v.label, v.rating]));
  assert.deepEqual(shown, [
    [["LCP 2.1 s", "good"], ["CLS 0.02", "good"]],
    [
      ["LCP 4.2 s", "poor"],
      ["CLS 0.26", "poor"],
      ["INP 80 ms", "good"],
      ["FCP 1.9 s", "needs_improvement"],
      ["TTFB 120 ms", "good"],
    ],
  ]);
});

Deno.test("page vitals: a page visited twice keeps each visit's own; the latest value of a name wins", () => {
  const pages = [
    { pathname: "/a", start: 0, duration: 10_000 },
    { pathname: "/b", start: 10_000, duration: 10_000 },
    { pathname: "/a", start: 20_000, duration: 10_000 },
  ];
  const markers = [
    vital(19_800, "ttfb", 900, "needs_improvement", "/a"), // the second visit's navigation
    vital(5_000, "lcp", 1_000, "good", "/a"),
    vital(6_000, "lcp", 3_000, "needs_improvement", "/a"), // a later, larger paint
    vital(15_000, "inp", 600, "poor"), // no pathname: the page showing then
  ];
  const vitals = pageVitals(pages, markers, START);
  assert.deepEqual(vitals.map((list) => list.map((v) => v.label)), [
    ["LCP 3.0 s"],
    ["INP 600 ms"],
    ["TTFB 900 ms"],
  ]);
});

Deno.test("page vitals: a rating ingest did not give is worked out; other markers are not vitals", () => {
  const pages = [{ pathname: "/", start: 0, duration: 10_000 }];
  const markers = [
    vital(100, "lcp", 2_500, ""), // at the good threshold
    vital(200, "cls", 0.1001, "sparkly"), // just past it
    vital(300, "fid", 10, "good"),
    { timestamp: START + 400, kind: "error", data: { name: "ttfb", value: 1 } },
  ];
  const [vitals] = pageVitals(pages, markers, START);
  assert.deepEqual(vitals.map((v) => [v.name, v.rating]), [
    ["lcp", "good"],
    ["cls", "needs_improvement"],
  ]);
});

Deno.test("page vitals: labels in ms under a second, else seconds; CLS as a score", () => {
  assert.equal(vitalLabel("ttfb", 999.4), "TTFB 999 ms");
  assert.equal(vitalLabel("lcp", 1_000), "LCP 1.0 s");
  assert.equal(vitalLabel("cls", 0.1), "CLS 0.10");
  assert.equal(ratingText("needs_improvement"), "needs improvement");
});
