import assert from "node:assert/strict";
import { dailySeries, legendValue } from "./daily_series.ts";

Deno.test("insights trend: every day of the range, zero on quiet days", () => {
  const data = dailySeries(
    [
      { day: "2026-11-02", errors: 3, rageClicks: 1, deadClicks: 0 },
    ],
    "2026-11-01",
    "2026-11-03",
  );
  assert.deepEqual(data[0], [1793491200, 1793577600, 1793664000]);
  assert.deepEqual(data.slice(1), [[0, 3, 0], [0, 1, 0], [0, 0, 0]]);
});

Deno.test("daily series: the legend says the range's total when no day is hovered, not --", () => {
  assert.equal(legendValue(null, 12), "12 in range");
  assert.equal(legendValue(0, 12), "0");
  assert.equal(legendValue(3, 12), "3");
});
