// A session's share of the maps from its events (recording/model/page_clicks.ts + rollup.ts): bands
// at their thresholds, cells of 1 % by 16 px in the document (the window's scroll added), views
// and the deepest point, rage and dead signals marking the click they name, paths folded.
import assert from "node:assert/strict";
import { PageClicks } from "@/recording/model/page_clicks.ts";
import type { RecordedEvent } from "@/recording/decode.ts";
import { heatmapRows } from "./rollup.ts";
import { bandOf } from "./schema.ts";
import {
  click,
  meta,
  NODE,
  resize,
  scroll,
  signal,
  snapshot,
} from "@/tests/helpers/heatmap_recording.ts";

const T = Date.UTC(2026, 10, 20, 12);
const rows = (events: unknown[]) => {
  const reader = new PageClicks();
  for (const event of events) reader.push(event as RecordedEvent);
  return heatmapRows(reader);
};
const visit = (width: number, height = 800, href = "https://shop.test/orders/123/edit") => ({
  href,
  width,
  height,
  start: T,
});

Deno.test("bands: narrow below 768, medium 768 to 1279, wide from 1280", () => {
  assert.deepEqual([767, 768, 1279, 1280].map(bandOf), ["narrow", "medium", "medium", "wide"]);
});

Deno.test("rollup: clicks by element and cell in the document, each row at its first click; the path folded; one view", () => {
  const v = visit(1000);
  const { views, clicks } = rows([
    meta(v),
    snapshot(T + 1),
    click(NODE.buyText, 105, 40, T + 10), // x 10.5 % → cell 10; y 40 → cell 2
    click(NODE.buy, 109, 47, T + 20), // same cell
    scroll(500, T + 30),
    click(NODE.paragraph, 999, 10, T + 40), // y 510 → cell 31; x 99.9 % → cell 99
  ]);
  assert.deepEqual(views, [{
    path: "/orders/:id/edit",
    band: "medium",
    day: "2026-11-20",
    views: 1,
    depthPx: 1300,
    foldPx: 800,
  }]);
  const key = { path: "/orders/:id/edit", band: "medium", day: "2026-11-20", rage: 0, dead: 0 };
  assert.deepEqual(clicks, [
    { ...key, selector: "button#buy", cellX: 10, cellY: 2, clicks: 2, firstMs: T + 10 },
    { ...key, selector: "body > p", cellX: 99, cellY: 31, clicks: 1, firstMs: T + 40 },
  ]);
});

Deno.test("rollup: a snapshot taken scrolled starts its depth there; element scrolls do not count", () => {
  const { views } = rows([
    meta(visit(1400, 700)),
    snapshot(T + 1, 300),
    scroll(5000, T + 5, NODE.toolbar),
  ]);
  assert.equal(views[0].depthPx, 1000);
  assert.equal(views[0].band, "wide");
});

Deno.test("rollup: a navigation is a new view; a Meta of the same address continues; a resize changes the band", () => {
  const v = visit(1280, 800, "https://shop.test/");
  const { views, clicks } = rows([
    meta(v),
    snapshot(T + 1),
    meta(v, T + 2), // a new snapshot of the same page
    snapshot(T + 3),
    {
      type: 5,
      data: { tag: "service:url", payload: { url: "https://shop.test/cart" } },
      timestamp: T + 4,
    },
    click(NODE.buy, 10, 10, T + 5),
    resize(700, 800, T + 6),
    click(NODE.buy, 10, 10, T + 7),
  ]);
  assert.deepEqual(views.map((r) => [r.path, r.band, r.views]), [
    ["/", "wide", 1],
    ["/cart", "wide", 1],
    ["/cart", "narrow", 0],
  ]);
  assert.deepEqual(clicks.map((c) => [c.path, c.band]), [["/cart", "wide"], ["/cart", "narrow"]]);
});

Deno.test("rollup: a rage signal marks its burst's first click, a dead one its click, by time and point", () => {
  const { clicks } = rows([
    meta(visit(1280)),
    snapshot(T + 1),
    click(NODE.second, 200, 30, T + 100),
    click(NODE.second, 201, 30, T + 300),
    click(NODE.second, 200, 31, T + 500),
    signal("rage_click", { selector: "x", x: 200, y: 30, at: T + 99, clicks: 3 }, T + 1600),
    click(NODE.third, 300, 30, T + 5000),
    // at the click's point but 251 ms off: no click of it
    signal("dead_click", { selector: "x", x: 300, y: 30, at: T + 5251 }, T + 8000),
    click(NODE.third, 300, 30, T + 9000),
    signal("dead_click", { selector: "x", x: 300, y: 30, at: T + 9250 }, T + 12000),
    // the right time, 2 px away: no click of it
    signal("rage_click", { selector: "x", x: 302, y: 30, at: T + 9000 }, T + 12000),
  ]);
  const by = Object.fromEntries(clicks.map((c) => [c.selector, [c.clicks, c.rage, c.dead]]));
  assert.deepEqual(by, {
    "body > div.toolbar.main > button.ghost:nth-of-type(2)": [3, 1, 0],
    "body > div.toolbar.main > button:nth-of-type(3)": [2, 0, 1],
  });
});

Deno.test("rollup: clicks before any Meta or snapshot, or on unknown nodes, are not counted", () => {
  const { views, clicks } = rows([
    click(NODE.buy, 1, 1, T),
    meta(visit(1280)),
    click(NODE.buy, 1, 1, T + 1),
    snapshot(T + 2),
    click(999, 1, 1, T + 3),
  ]);
  assert.equal(views.length, 1);
  assert.deepEqual(clicks, []);
});
