import assert from "node:assert/strict";
import { seekTicks, tickNear } from "./ticks.ts";

const T0 = 1_000_000;

Deno.test("ticks: every marker kind gets a tick with a tooltip, unknown kinds by their name", () => {
  const ticks = seekTicks(
    [
      { timestamp: T0 + 9_000, kind: "rage_click", data: { selector: "#pay", text: "Pay now" } },
      {
        timestamp: T0 + 2_000,
        kind: "url",
        data: { url: "https://a.test/cart", pathname: "/cart" },
      },
      { timestamp: T0 + 3_000, kind: "identity", data: { userId: "u-7" } },
      { timestamp: T0 + 4_000, kind: "error", data: { message: "Payment failed" } },
      { timestamp: T0 + 5_000, kind: "dead_click", data: { selector: "div.card", text: "" } },
      { timestamp: T0 + 6_000, kind: "checkout_step", data: { step: 2 } },
      { timestamp: T0 + 99_000, kind: "url", data: { url: "https://a.test/late" } },
    ],
    [{ offset: 4_500, level: "error", args: ["ignored: error markers exist"] }],
    T0,
    60_000,
  );
  assert.deepEqual(ticks, [
    { offset: 2_000, kind: "url", label: "Page: /cart" },
    { offset: 3_000, kind: "identity", label: "Identified: u-7" },
    { offset: 4_000, kind: "error", label: "Error: Payment failed" },
    { offset: 5_000, kind: "dead_click", label: "Dead click: div.card" },
    { offset: 6_000, kind: "checkout_step", label: "checkout step" },
    { offset: 9_000, kind: "rage_click", label: "Rage click: Pay now" },
    { offset: 60_000, kind: "url", label: "Page: https://a.test/late" },
  ]);
});

Deno.test("ticks: without error markers, console errors are ticks; long labels are cut", () => {
  const ticks = seekTicks(
    [],
    [
      { offset: 700, level: "log", args: ["fine"] },
      { offset: 800, level: "error", args: ["x".repeat(200)] },
    ],
    T0,
    10_000,
  );
  assert.equal(ticks.length, 1);
  assert.equal(ticks[0].offset, 800);
  assert.equal(ticks[0].label.length, 80);
  assert.ok(ticks[0].label.startsWith("Error: xxx") && ticks[0].label.endsWith("…"));
});

Deno.test("ticks: the tick nearest an offset within reach", () => {
  const ticks = seekTicks(
    [
      { timestamp: T0 + 1_000, kind: "url", data: { pathname: "/a" } },
      { timestamp: T0 + 1_400, kind: "url", data: { pathname: "/b" } },
    ],
    [],
    T0,
    10_000,
  );
  assert.equal(tickNear(ticks, 1_250, 300)?.label, "Page: /b");
  assert.equal(tickNear(ticks, 1_150, 300)?.label, "Page: /a");
  assert.equal(tickNear(ticks, 2_000, 300), null);
});
