// The activity chart's series: events per bucket for each top page (the pages the API split the
// buckets by, biggest first) and "Other" for the rest, stacked bottom-up for uPlot's bars.
import type { TrackedUserActivity } from "@/core/tracked_users/schema.ts";
import { colorOf, OTHER_COLOR, type PageColors } from "./page_colors.ts";

export interface Series {
  label: string;
  color: string;
  /** Events per bucket, as counted. */
  counts: number[];
}

export interface ActivitySeries {
  /** Bucket starts, epoch ms. */
  starts: number[];
  totals: number[];
  /** Top pages by events in the window, then "Other" (only when it has events). */
  series: Series[];
}

export const OTHER_LABEL = "Other pages";

export function activitySeries(activity: TrackedUserActivity, colors: PageColors): ActivitySeries {
  const perPage = new Map<string, number>();
  for (const bucket of activity.buckets) {
    for (const { pathname, count } of bucket.byPage) {
      perPage.set(pathname, (perPage.get(pathname) ?? 0) + count);
    }
  }
  const pages = [...perPage].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .map(([pathname]) => pathname);
  const series: Series[] = pages.map((pathname) => ({
    label: pathname,
    color: colorOf(colors, pathname),
    counts: activity.buckets.map((b) => b.byPage.find((p) => p.pathname === pathname)?.count ?? 0),
  }));
  const other = activity.buckets.map((b) =>
    b.total - b.byPage.reduce((sum, p) => sum + p.count, 0)
  );
  if (other.some((n) => n > 0)) {
    series.push({ label: OTHER_LABEL, color: OTHER_COLOR, counts: other });
  }
  return {
    starts: activity.buckets.map((b) => Date.parse(b.t)),
    totals: activity.buckets.map((b) => b.total),
    series,
  };
}

/** Cumulative sums: row i is series 0..i added up, so drawing the last row first stacks bars. */
export function stacked(series: Series[]): number[][] {
  const rows: number[][] = [];
  for (const [i, s] of series.entries()) {
    rows.push(s.counts.map((n, j) => n + (i > 0 ? rows[i - 1][j] : 0)));
  }
  return rows;
}
