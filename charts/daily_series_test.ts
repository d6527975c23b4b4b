import assert from "node:assert/strict";
import { dailySeries } from "./daily_series.ts";

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
