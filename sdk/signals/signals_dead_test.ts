// Dead clicks at and on both sides of the 3 s threshold, what proves a click alive (a mutation, a
// scroll, an input, a navigation, a selection change), and which elements are watched at all.
import assert from "node:assert/strict";
import { DEAD_CLICK_MS } from "./signals.ts";
import { signalsWorld } from "@/tests/helpers/sdk_signals_world.ts";

const PAGE = `<main id="main">
  <button id="buy" class="btn">Buy</button>
  <p id="out">Ready</p>
  <input id="name" type="text">
  <div id="pane" style="overflow:auto;height:50px"><div style="height:500px"></div></div>
</main>`;

/** Clicks #buy, lets `before` ms pass, does `act`, then waits past the threshold. */
async function deadAfter(act: (world: ReturnType<typeof signalsWorld>) => void, before = 1000) {
  using world = signalsWorld(PAGE);
  world.click("#buy");
  await world.wait(before);
  act(world);
  await world.wait(DEAD_CLICK_MS);
  return world.signals("service:dead_click").map((s) => s.selector);
}

Deno.test("signals: the dead-click threshold is 3 s", () => {
  assert.equal(DEAD_CLICK_MS, 3000);
});

Deno.test("signals: nothing for 2999 ms is no dead click yet; at 3000 ms it is one", async () => {
  using world = signalsWorld(PAGE);
  world.click("#buy", 40, 60);
  await world.wait(DEAD_CLICK_MS - 1);
  assert.deepEqual(world.signals("service:dead_click"), []);
  await world.wait(1);
  const dead = world.signals("service:dead_click");
  assert.equal(dead.length, 1);
  assert.deepEqual(
    { selector: dead[0].selector, text: dead[0].text, x: dead[0].x, y: dead[0].y },
    { selector: "button#buy", text: "Buy", x: 40, y: 60 },
  );
  // Emitted once: more time passing adds nothing.
  await world.wait(DEAD_CLICK_MS * 2);
  assert.equal(world.signals("service:dead_click").length, 1);
});

Deno.test("signals: a change 2999 ms after the click saves it; one at 3000 ms is too late", async () => {
  const change = (w: ReturnType<typeof signalsWorld>) => {
    w.element("#out").textContent = "Added to cart";
  };
  assert.deepEqual(await deadAfter(change, DEAD_CLICK_MS - 1), []);
  assert.deepEqual(await deadAfter(change, DEAD_CLICK_MS), ["button#buy"]);
});

Deno.test("signals: every kind of DOM mutation proves a click alive", async () => {
  const mutations: Record<string, (w: ReturnType<typeof signalsWorld>) => void> = {
    "a child added": (w) => w.element("#main").append(w.document.createElement("p")),
    "a child removed": (w) => w.element("#out").remove(),
    "an attribute": (w) => w.element("#buy").setAttribute("aria-busy", "true"),
    "a text node's data": (w) => {
      (w.element("#out").firstChild as unknown as { data: string }).data = "Sent";
    },
  };
  for (const [name, mutate] of Object.entries(mutations)) {
    assert.deepEqual(await deadAfter(mutate), [], name);
  }
  assert.deepEqual(await deadAfter(() => {}), ["button#buy"], "the control: nothing happens");
});

Deno.test("signals: a scroll, an input, a change, a navigation or a selection proves it alive", async () => {
  const events: Record<string, (w: ReturnType<typeof signalsWorld>) => void> = {
    "the page scrolls": (w) => w.window.dispatchEvent(new w.window.Event("scroll")),
    "a box scrolls": (w) => w.element("#pane").dispatchEvent(new w.window.Event("scroll")),
    "an input": (w) =>
      w.element("#name").dispatchEvent(new w.window.Event("input", { bubbles: true })),
    "a change": (w) =>
      w.element("#name").dispatchEvent(new w.window.Event("change", { bubbles: true })),
    "history navigation": (w) => w.window.dispatchEvent(new w.window.Event("popstate")),
    "a hash change": (w) => w.window.dispatchEvent(new w.window.Event("hashchange")),
    "leaving the page": (w) => w.window.dispatchEvent(new w.window.Event("pagehide")),
    "a selection change": (w) => w.document.dispatchEvent(new w.window.Event("selectionchange")),
  };
  for (const [name, act] of Object.entries(events)) {
    assert.deepEqual(await deadAfter(act), [], name);
  }
  // An event that proves nothing (a focus) leaves it dead.
  const focus = (w: ReturnType<typeof signalsWorld>) =>
    w.element("#name").dispatchEvent(new w.window.Event("focus"));
  assert.deepEqual(await deadAfter(focus), ["button#buy"]);
});

Deno.test("signals: once a click proved alive, later stillness does not make it dead", async () => {
  using world = signalsWorld(PAGE);
  world.click("#buy");
  await world.wait(10);
  world.element("#out").textContent = "Added";
  await world.wait(DEAD_CLICK_MS * 3);
  assert.deepEqual(world.signals("service:dead_click"), []);
});

Deno.test("signals: one watch at a time: a click while one waits is part of the same nothing", async () => {
  using world = signalsWorld(PAGE);
  world.click("#buy");
  await world.wait(2000);
  world.click("#buy");
  await world.wait(1000);
  // Dead 3 s after the first click, not 3 s after the second; and only once.
  assert.equal(world.signals("service:dead_click").length, 1);
  await world.wait(DEAD_CLICK_MS);
  assert.equal(world.signals("service:dead_click").length, 1);
  // After it, a new click is watched anew.
  world.click("#buy");
  await world.wait(DEAD_CLICK_MS);
  assert.equal(world.signals("service:dead_click").length, 2);
});

Deno.test("signals: stopping the detector drops the watch in progress", async () => {
  using world = signalsWorld(PAGE);
  world.click("#buy");
  world.stop();
  await world.wait(DEAD_CLICK_MS * 2);
  assert.deepEqual(world.signals("service:dead_click"), []);
});

Deno.test("signals: a click whose handler throws within 3 s is an error, not a dead click", async () => {
  const thrown = (w: ReturnType<typeof signalsWorld>) =>
    w.window.dispatchEvent(new w.window.ErrorEvent("error", { message: "Boom" }));
  const rejected = (w: ReturnType<typeof signalsWorld>) =>
    w.window.dispatchEvent(new w.window.Event("unhandledrejection"));
  assert.deepEqual(await deadAfter(thrown, 0), [], "thrown by the click's own handler");
  assert.deepEqual(await deadAfter(thrown, DEAD_CLICK_MS - 1), [], "thrown 2999 ms after");
  assert.deepEqual(await deadAfter(thrown, DEAD_CLICK_MS), ["button#buy"], "3000 ms: too late");
  assert.deepEqual(await deadAfter(rejected, DEAD_CLICK_MS - 1), [], "an unhandled rejection");
  // Clicked again (a rage click) before it threw: still its own handler's error.
  const again = (w: ReturnType<typeof signalsWorld>) => {
    w.click("#buy");
    thrown(w);
  };
  assert.deepEqual(await deadAfter(again), [], "the same button clicked again, then thrown");
  // A click elsewhere came first: the error is that click's, and this one stays dead.
  const elsewhere = (w: ReturnType<typeof signalsWorld>) => {
    w.click("#out");
    thrown(w);
  };
  assert.deepEqual(await deadAfter(elsewhere), ["button#buy"], "thrown after a click elsewhere");
  // An element's failed load is no error of the click's: its event does not bubble to the window.
  const failedLoad = (w: ReturnType<typeof signalsWorld>) =>
    w.element("#out").dispatchEvent(new w.window.Event("error"));
  assert.deepEqual(await deadAfter(failedLoad), ["button#buy"], "a resource's error event");
});
