import assert from "node:assert/strict";
import { dailySeries, hourlySeries, legendValue } from "./daily_series.ts";

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

Deno.test("insights trend: today is every hour up to now's, zero on quiet hours", () => {
  const data = hourlySeries(
    [{ hour: "2026-11-02T01:00:00.000Z", errors: 2, rageClicks: 0, deadClicks: 1 }],
    "2026-11-02T00:00:00.000Z",
    "2026-11-02T03:00:00.000Z",
  );
  const at = (h: number) => Date.parse(`2026-11-02T0${h}:00:00Z`) / 1000;
  assert.deepEqual(data[0], [at(0), at(1), at(2), at(3)]);
  assert.deepEqual(data.slice(1), [[0, 2, 0, 0], [0, 0, 0, 0], [0, 1, 0, 0]]);
});
