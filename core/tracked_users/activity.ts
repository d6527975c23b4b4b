// A tracked user's activity (docs/decisions.md "Tracked users"). Choices made here:
// - buckets: the full grid [from + i·bucketMs), i < window / bucketMs (24, 24 or 28 buckets); a
//   batch stamped exactly `to` falls in the last one. `total` counts every event of the bucket;
//   `byPage` lists, among the window's top `pageLimit` pages by events, those with events in that
//   bucket (count desc, then pathname). Events of sessions without any url marker count only in
//   `total`.
// - pageDistribution: the timeline's periods summed per pathname over every page (not cut to
//   pageLimit, so shares sum to 1): duration, share of the summed duration (of visits when every
//   duration is 0), visits = periods; sorted by duration, visits, then pathname.
// - summary: over the window's sessions (the timeline's inclusion rule): sessionCount, the sum
//   and rounded mean of their durations, the sum of their eventCounts, the distribution's page
//   count and first page, the earliest start and the latest end (start while open).
import type { AppDeps } from "@/core/deps.ts";
import { activityAggregates } from "@/db/queries/tracked_users/activity.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { PageShare, TrackedUserActivity } from "./schema.ts";
import { type Range, RANGES, userInOrganization, windowOf } from "./timeline.ts";
import { storedIso } from "@/core/stored_time.ts";

type Deps = Pick<AppDeps, "db">;

export const BUCKET_MS: Record<Range, number> = {
  "6h": 900_000,
  "24h": 3_600_000,
  "7d": 21_600_000,
};

/** Shares of the summed duration (of visits when every duration is 0), biggest first. */
export function pageDistribution(pages: [string, number, number][]): PageShare[] {
  const totalDuration = pages.reduce((sum, [, duration]) => sum + duration, 0);
  const totalVisits = pages.reduce((sum, [, , visits]) => sum + visits, 0);
  return pages.map(([pathname, duration, visits]) => ({
    pathname,
    duration,
    share: totalDuration > 0 ? duration / totalDuration : visits / totalVisits,
    visits,
  })).sort((a, b) =>
    b.duration - a.duration || b.visits - a.visits || a.pathname.localeCompare(b.pathname)
  );
}

type Count = [number, string | null, number];
const byEvents = (a: [string, number], b: [string, number]) =>
  b[1] - a[1] || a[0].localeCompare(b[0]);

/** The full grid of buckets; byPage keeps the window's top `pageLimit` pages by events. */
function bucketGrid(counts: Count[], from: Date, bucketMs: number, n: number, pageLimit: number) {
  const perPage = new Map<string, number>();
  for (const [, pathname, events] of counts) {
    if (pathname !== null) perPage.set(pathname, (perPage.get(pathname) ?? 0) + events);
  }
  const top = new Set([...perPage].sort(byEvents).slice(0, pageLimit).map(([p]) => p));
  const perBucket = Map.groupBy(counts, ([bucket]) => bucket);
  return Array.from({ length: n }, (_, i) => {
    const own = perBucket.get(i) ?? [];
    const byPage = own.filter(([, p]) => p !== null && top.has(p))
      .map(([, p, events]): [string, number] => [p!, events]).sort(byEvents)
      .map(([pathname, count]) => ({ pathname, count }));
    return {
      t: new Date(from.getTime() + i * bucketMs).toISOString(),
      total: own.reduce((sum, [, , events]) => sum + events, 0),
      byPage,
    };
  });
}

export async function trackedUserActivity(
  deps: Deps,
  viewer: Viewer,
  id: string,
  input: { range: Range; pageLimit: number },
  now = new Date(),
): Promise<TrackedUserActivity> {
  await userInOrganization(deps, viewer, id);
  const w = windowOf(input.range, now);
  const bucketMs = BUCKET_MS[input.range];
  const n = RANGES[input.range] / bucketMs;
  const row = await activityAggregates(deps.db.kysely, id, { ...w, bucketMs, buckets: n });
  const distribution = pageDistribution(row.pages);
  return {
    range: input.range,
    from: w.from.toISOString(),
    to: w.to.toISOString(),
    bucketMs,
    buckets: bucketGrid(row.counts, w.from, bucketMs, n, input.pageLimit),
    pageDistribution: distribution,
    summary: {
      sessionCount: row.session_count,
      totalActiveTime: row.total_active_time,
      avgSessionDuration: row.session_count
        ? Math.round(row.total_active_time / row.session_count)
        : 0,
      totalEvents: row.total_events,
      uniquePages: distribution.length,
      topPage: distribution[0]?.pathname ?? null,
      firstEventAt: storedIso(row.first_event_at),
      lastEventAt: storedIso(row.last_event_at),
    },
  };
}
