import assert from "node:assert/strict";
import { mapSessionsHref } from "./heatmaps.ts";

const NOW = new Date("2026-11-29T15:30:00Z");
const rangeOf = (from: string) =>
  new URL(mapSessionsHref({ from }, "p1", { clicked: "button#buy" }, NOW), "http://x")
    .searchParams.get("range");

Deno.test("heatmaps: a map's sessions open in the list's smallest range holding its first day", () => {
  assert.equal(rangeOf("2026-11-29"), "today");
  assert.equal(rangeOf("2026-11-28"), "7d");
  assert.equal(rangeOf("2026-11-23"), "7d"); // 6 days back: inside the list's last 7 × 24 h
  assert.equal(rangeOf("2026-11-22"), "30d");
  assert.equal(rangeOf("2026-10-31"), "30d"); // 29 days back
  assert.equal(rangeOf("2026-10-30"), null); // 30 days back: all (the default, left out)
});

Deno.test("heatmaps: the link names the project and what was clicked", () => {
  const url = new URL(
    mapSessionsHref({ from: "2026-11-29" }, "p1", { clickedCell: "wide:1:2:/" }, NOW),
    "http://x",
  );
  assert.deepEqual(Object.fromEntries(url.searchParams), {
    projectIds: "p1",
    range: "today",
    clickedCell: "wide:1:2:/",
  });
  assert.equal(url.pathname, "/sessions");
});
