import assert from "node:assert/strict";
import type { TrackedUserActivity } from "@/core/tracked_users/schema.ts";
import { activitySeries, OTHER_LABEL, stacked } from "./activity_series.ts";
import { OTHER_COLOR, pageColors } from "./page_colors.ts";

const bucket = (t: string, total: number, byPage: [string, number][]) => ({
  t,
  total,
  byPage: byPage.map(([pathname, count]) => ({ pathname, count })),
});

const activity = {
  buckets: [
    bucket("2026-03-12T10:00:00.000Z", 30, [["/cart", 20], ["/", 4]]),
    bucket("2026-03-12T11:00:00.000Z", 0, []),
    bucket("2026-03-12T12:00:00.000Z", 12, [["/", 12]]),
  ],
} as unknown as TrackedUserActivity;

Deno.test("activity series: top pages biggest first, the rest of each bucket as other", () => {
  const colors = pageColors(["/", "/cart"]);
  const { series, totals, starts } = activitySeries(activity, colors);
  assert.deepEqual(series.map((s) => s.label), ["/cart", "/", OTHER_LABEL]);
  assert.deepEqual(series.map((s) => s.counts), [[20, 0, 0], [4, 0, 12], [6, 0, 0]]);
  assert.equal(series[0].color, colors.get("/cart"));
  assert.equal(series[2].color, OTHER_COLOR);
  assert.deepEqual(totals, [30, 0, 12]);
  assert.equal(starts[1], Date.UTC(2026, 2, 12, 11));
});

Deno.test("activity series: no other series when the top pages hold every event", () => {
  const exact = { buckets: [bucket("2026-03-12T10:00:00.000Z", 5, [["/", 5]])] };
  const { series } = activitySeries(exact as unknown as TrackedUserActivity, pageColors([]));
  assert.deepEqual(series.map((s) => s.label), ["/"]);
});

Deno.test("activity series: stacking adds each series onto the ones before it", () => {
  const { series } = activitySeries(activity, pageColors([]));
  assert.deepEqual(stacked(series), [[20, 0, 0], [24, 0, 12], [30, 0, 12]]);
});
