// The heat layer's hit tests: a cell opens the sessions that clicked in it (its own cell before a
// neighbour its blob spreads over), an element is boxed by its layout in the frame when measured
// and by its clicks' cells when not, the smallest box under the point wins, and the scroll map
// opens nothing.
import assert from "node:assert/strict";
import type { Heatmap } from "@/core/heatmaps/schema.ts";
import { boxOf, type Element, under } from "./heatmap_layer.ts";

const common = { path: "/orders/:id", viewport: "wide", from: "2026-11-20", to: "2026-11-26" };
const grid = {
  ...common,
  mode: "coordinate",
  kind: "click",
  totalSessions: 3,
  cellWidthPercent: 1,
  cellHeightPx: 16,
  cells: [{ x: 10, y: 2, count: 4 }, { x: 11, y: 2, count: 1 }],
} as Heatmap;
const el = (selector: string, rect: Element["rect"]): Element => ({
  selector,
  count: 2,
  sessions: 1,
  rageCount: 0,
  deadCount: 0,
  rect,
});
const toolbar = el("div.toolbar", { x: 0.1, y: 32, width: 0.5, height: 48 });
const buy = el("button#buy", { x: 0.1, y: 40, width: 0.02, height: 16 });
const elements = {
  ...common,
  mode: "element",
  kind: "click",
  totalSessions: 1,
  elements: [toolbar, buy],
} as Heatmap;
const now = new Date("2026-11-26T12:00:00Z"); // the map's last day
const scope = (measured = new Map()) => ({ projectId: "p1", width: 1000, measured, now });
const query = (href?: string) => Object.fromEntries(new URL(href!, "http://x").searchParams);

Deno.test("heatmap layer: a cell opens the sessions that clicked in it, its own before a neighbour", () => {
  const own = under(grid, scope(), 115, 40); // x 11.5 % → cell 11, y 40 → cell 2
  assert.deepEqual(query(own?.href), {
    projectIds: "p1",
    range: "7d", // the map's seven days
    clickedCell: "wide:11:2:/orders/:id",
  });
  assert.equal(own?.text, "1 clicks · open their sessions");
  const near = under(grid, scope(), 95, 40); // cell 9: its neighbour 10 is the nearest
  assert.equal(query(near?.href).clickedCell, "wide:10:2:/orders/:id");
  assert.equal(under(grid, scope(), 500, 40), undefined);
});

Deno.test("heatmap layer: an element is boxed by its layout when measured, else by its clicks", () => {
  assert.deepEqual(boxOf(buy, 1000, new Map()), { x: 96, y: 34, w: 28, h: 28, laidOut: false });
  const laid = new Map([["button#buy", { x: 300, y: 200, w: 120, h: 40 }]]);
  assert.deepEqual(boxOf(buy, 1000, laid), { x: 300, y: 200, w: 120, h: 40, laidOut: true });
  // Under the point: the smallest box; measured, the button is where it is laid out.
  assert.equal(query(under(elements, scope(), 100, 45)?.href).clicked, "button#buy");
  assert.equal(query(under(elements, scope(laid), 100, 45)?.href).clicked, "div.toolbar");
  assert.equal(query(under(elements, scope(laid), 350, 220)?.href).clicked, "button#buy");
});

Deno.test("heatmap layer: the scroll map names a depth and opens nothing", () => {
  const depth = {
    ...common,
    mode: "scroll",
    kind: "scroll",
    totalSessions: 2,
    depths: [{ depthPx: 0, reachedFraction: 1 }, { depthPx: 100, reachedFraction: 0.5 }],
    averageFoldPx: 800,
  } as Heatmap;
  assert.deepEqual(under(depth, scope(), 10, 150), { text: "50 % of sessions saw 100 px" });
});
