import assert from "node:assert/strict";
import { colorOf, OTHER_COLOR, pageColors, PALETTE } from "./page_colors.ts";

Deno.test("page colours: a pathname keeps its colour whatever else is on screen", () => {
  const alone = pageColors(["/pricing"]).get("/pricing");
  const withOthers = pageColors(["/pricing", "/", "/cart"]).get("/pricing");
  assert.equal(alone, withOthers);
});

Deno.test("page colours: the pages on one screen never share a colour", () => {
  const pages = Array.from({ length: PALETTE.length }, (_, i) => `/page-${i}`);
  const colors = pageColors(pages);
  assert.equal(new Set(colors.values()).size, PALETTE.length);
});

Deno.test("page colours: pages beyond the palette, and null, draw as other", () => {
  const pages = Array.from({ length: PALETTE.length + 2 }, (_, i) => `/p${i}`);
  const colors = pageColors(pages);
  assert.equal(colors.size, PALETTE.length);
  assert.equal(colorOf(colors, pages.at(-1)!), OTHER_COLOR);
  assert.equal(colorOf(colors, null), OTHER_COLOR);
  assert.notEqual(colorOf(colors, pages[0]), OTHER_COLOR);
});
