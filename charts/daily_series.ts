// The insights trend's data: one point per UTC day of the range (per hour for today), zero where
// nothing happened.
import type { Insights } from "@/core/insights/schema.ts";

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export const SERIES = [
  { key: "errors", label: "Errors", stroke: "#c92a2a" },
  { key: "rageClicks", label: "Rage clicks", stroke: "#b86e00" },
  { key: "deadClicks", label: "Dead clicks", stroke: "#7048e8" },
] as const;

type Counts = Pick<Insights["daily"][number], "errors" | "rageClicks" | "deadClicks">;

/**
 * A legend value: the hovered day's count, or with no day hovered (uPlot passes null, and would
 * show "--") the series' total over the range, said as such.
 */
export function legendValue(value: number | null, total: number): string {
  return value === null ? `${total} in range` : String(value);
}

/** uPlot's aligned data: epoch seconds of each step from `from` to `to` (ms), then each series. */
function aligned(byTime: Map<number, Counts>, from: number, to: number, step: number): number[][] {
  const xs: number[] = [];
  const ys: number[][] = SERIES.map(() => []);
  for (let t = from; t <= to; t += step) {
    xs.push(t / 1000);
    SERIES.forEach((s, i) => ys[i].push(byTime.get(t)?.[s.key] ?? 0));
  }
  return [xs, ...ys];
}

/** Each day from `from` to `to` (YYYY-MM-DD). */
export function dailySeries(daily: Insights["daily"], from: string, to: string): number[][] {
  const byDay = new Map(daily.map((d) => [Date.parse(`${d.day}T00:00:00Z`), d]));
  return aligned(byDay, Date.parse(`${from}T00:00:00Z`), Date.parse(`${to}T00:00:00Z`), DAY_MS);
}

/** Each hour from `from` to `to` (ISO instants of hours' starts). */
export function hourlySeries(hourly: Insights["hourly"], from: string, to: string): number[][] {
  const byHour = new Map(hourly.map((h) => [Date.parse(h.hour), h]));
  return aligned(byHour, Date.parse(from), Date.parse(to), HOUR_MS);
}
