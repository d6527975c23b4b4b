// The insights trend's data: one point per UTC day of the range, zero where nothing happened.
import type { Insights } from "@/core/insights/schema.ts";

const DAY_MS = 86_400_000;

export const SERIES = [
  { key: "errors", label: "Errors", stroke: "#c92a2a" },
  { key: "rageClicks", label: "Rage clicks", stroke: "#b86e00" },
  { key: "deadClicks", label: "Dead clicks", stroke: "#7048e8" },
] as const;

/**
 * A legend value: the hovered day's count, or with no day hovered (uPlot passes null, and would
 * show "--") the series' total over the range, said as such.
 */
export function legendValue(value: number | null, total: number): string {
  return value === null ? `${total} in range` : String(value);
}

/** uPlot's aligned data: epoch seconds of each day from `from` to `to`, then each series. */
export function dailySeries(daily: Insights["daily"], from: string, to: string): number[][] {
  const byDay = new Map(daily.map((d) => [d.day, d]));
  const xs: number[] = [];
  const ys: number[][] = SERIES.map(() => []);
  const last = Date.parse(`${to}T00:00:00Z`);
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= last; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    xs.push(t / 1000);
    SERIES.forEach((s, i) => ys[i].push(byDay.get(day)?.[s.key] ?? 0));
  }
  return [xs, ...ys];
}
