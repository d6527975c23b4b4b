// Rage clicks at and on both sides of each threshold: the click count (3), the interval between
// clicks (1 s, from the previous click) and the radius (30 px, from the burst's first click).
// They assert which clicks make a signal and its click count, not when it is stamped.
import assert from "node:assert/strict";
import { RAGE_CLICKS, RAGE_INTERVAL_MS, RAGE_RADIUS_PX } from "./signals.ts";
import { signalsWorld } from "@/tests/helpers/sdk_signals_world.ts";

// A plain box: no dead-click watch, so only rage clicks are emitted.
const PAGE = `<div id="box" style="width:400px;height:400px">Price</div>`;

/** Clicks `#box` at each [ms since the previous click, x, y], then lets any burst end. */
async function rageOf(clicks: [number, number, number][]) {
  using world = signalsWorld(PAGE);
  for (const [after, x, y] of clicks) {
    await world.wait(after);
    world.click("#box", x, y);
  }
  await world.wait(RAGE_INTERVAL_MS + 1);
  return world.signals("service:rage_click").map((s) => s.clicks);
}

Deno.test("signals: the rule's numbers are 3 clicks, 1 s apart at most, within 30 px", () => {
  assert.deepEqual([RAGE_CLICKS, RAGE_INTERVAL_MS, RAGE_RADIUS_PX], [3, 1000, 30]);
});

Deno.test("signals: 2 quick clicks are no rage click; 3 are one of 3; 5 are one of 5", async () => {
  assert.deepEqual(await rageOf([[0, 100, 100], [100, 100, 100]]), []);
  assert.deepEqual(await rageOf([[0, 100, 100], [100, 100, 100], [100, 100, 100]]), [3]);
  const five = Array.from({ length: 5 }, (): [number, number, number] => [100, 100, 100]);
  assert.deepEqual(await rageOf(five), [5]);
});

Deno.test("signals: clicks 999 ms and exactly 1 s apart are one burst; 1001 ms apart are not", async () => {
  assert.deepEqual(await rageOf([[0, 100, 100], [999, 100, 100], [999, 100, 100]]), [3]);
  assert.deepEqual(await rageOf([[0, 100, 100], [1000, 100, 100], [1000, 100, 100]]), [3]);
  assert.deepEqual(await rageOf([[0, 100, 100], [1001, 100, 100], [1001, 100, 100]]), []);
  // One slow gap splits the clicks: 2 before it, 2 after, neither a burst of 3.
  assert.deepEqual(
    await rageOf([[0, 100, 100], [500, 100, 100], [1001, 100, 100], [500, 100, 100]]),
    [],
  );
});

Deno.test("signals: the interval runs from the previous click, not the burst's first", async () => {
  // 1.8 s from first to last, each 900 ms after the one before: one burst.
  assert.deepEqual(await rageOf([[0, 100, 100], [900, 100, 100], [900, 100, 100]]), [3]);
});

Deno.test("signals: clicks exactly 30 px from the first are one burst; 31 px away are not", async () => {
  // (18, 24) is 30 px away, (30, 0) too; (31, 0) and (19, 24) are over.
  assert.deepEqual(await rageOf([[0, 100, 100], [100, 130, 100], [100, 118, 124]]), [3]);
  assert.deepEqual(await rageOf([[0, 100, 100], [100, 131, 100], [100, 131, 100]]), []);
  assert.deepEqual(await rageOf([[0, 100, 100], [100, 100, 100], [100, 119, 124]]), []);
});

Deno.test("signals: the radius runs from the burst's first click, not the previous one", async () => {
  // Each 20 px from the one before, the third 40 px from the first: it starts a new burst.
  assert.deepEqual(await rageOf([[0, 100, 100], [100, 120, 100], [100, 140, 100]]), []);
});

Deno.test("signals: a click far away ends a burst at once and starts the next", async () => {
  assert.deepEqual(
    await rageOf([
      [0, 100, 100],
      [100, 100, 100],
      [100, 100, 100],
      [100, 300, 300],
      [100, 300, 300],
      [100, 300, 300],
      [100, 300, 300],
    ]),
    [3, 4],
  );
});

Deno.test("signals: a burst is emitted once, when it ends, with its element", async () => {
  using world = signalsWorld(`<button id="buy" class="btn">Buy now</button>`);
  for (let i = 0; i < 3; i++) {
    world.click("#buy");
    await world.wait(200);
  }
  assert.equal(world.signals("service:rage_click").length, 0, "emitted before the burst ended");
  await world.wait(RAGE_INTERVAL_MS);
  const [rage, ...more] = world.signals("service:rage_click");
  assert.deepEqual(more, []);
  assert.deepEqual(
    { selector: rage.selector, text: rage.text, clicks: rage.clicks },
    { selector: "button#buy", text: "Buy now", clicks: 3 },
  );
});

Deno.test("signals: stopping the detector ends a burst in progress and watches no more", async () => {
  using world = signalsWorld(PAGE);
  for (let i = 0; i < 3; i++) world.click("#box");
  world.stop();
  assert.deepEqual(world.signals("service:rage_click").map((s) => s.clicks), [3]);
  for (let i = 0; i < 3; i++) world.click("#box");
  await world.wait(RAGE_INTERVAL_MS + 1);
  assert.equal(world.signals("service:rage_click").length, 1);
});
