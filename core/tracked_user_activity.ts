// A tracked user's activity (spec §4, DECISIONS "Tracked users"). Choices the spec leaves open:
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
import type { AppDeps } from "../app_deps.ts";
import { bucketPageCounts } from "../db/queries/tracked_user_activity.ts";
import type { Viewer } from "./viewer.ts";
import {
  loadWindow,
  type Range,
  RANGES,
  type TimelineSession,
  userInOrganization,
  windowOf,
} from "./tracked_user_timeline.ts";

type Deps = Pick<AppDeps, "db">;

export const BUCKET_MS: Record<Range, number> = {
  "6h": 900_000,
  "24h": 3_600_000,
  "7d": 21_600_000,
};

export interface PageShare {
  pathname: string;
  duration: number;
  share: number;
  visits: number;
}

export function pageDistribution(sessions: TimelineSession[]): PageShare[] {
  const pages = new Map<string, { duration: number; visits: number }>();
  for (const period of sessions.flatMap((s) => s.periods)) {
    if (period.pathname === null) continue;
    const page = pages.get(period.pathname) ?? { duration: 0, visits: 0 };
    page.duration += period.duration;
    page.visits += 1;
    pages.set(period.pathname, page);
  }
  const entries = [...pages].map(([pathname, p]) => ({ pathname, ...p }));
  const totalDuration = entries.reduce((sum, p) => sum + p.duration, 0);
  const totalVisits = entries.reduce((sum, p) => sum + p.visits, 0);
  return entries.map((p) => ({
    pathname: p.pathname,
    duration: p.duration,
    share: totalDuration > 0 ? p.duration / totalDuration : p.visits / totalVisits,
    visits: p.visits,
  })).sort((a, b) =>
    b.duration - a.duration || b.visits - a.visits || a.pathname.localeCompare(b.pathname)
  );
}

export async function trackedUserActivity(
  deps: Deps,
  viewer: Viewer,
  id: string,
  input: { range: Range; pageLimit: number },
  now = new Date(),
) {
  await userInOrganization(deps, viewer, id);
  const w = windowOf(input.range, now);
  const bucketMs = BUCKET_MS[input.range];
  const count = RANGES[input.range] / bucketMs;
  const [{ rows, sessions }, counts] = await Promise.all([
    loadWindow(deps, id, w),
    bucketPageCounts(deps.db.kysely, id, { ...w, bucketMs, buckets: count }),
  ]);

  const perPage = new Map<string, number>();
  for (const c of counts) {
    if (c.pathname !== null) perPage.set(c.pathname, (perPage.get(c.pathname) ?? 0) + c.count);
  }
  const byCount = (a: [string, number], b: [string, number]) =>
    b[1] - a[1] || a[0].localeCompare(b[0]);
  const top = new Set([...perPage].sort(byCount).slice(0, input.pageLimit).map(([p]) => p));
  const buckets = Array.from({ length: count }, (_, i) => {
    const own = counts.filter((c) => c.bucket === i);
    const byPage = own.filter((c) => c.pathname !== null && top.has(c.pathname))
      .map((c): [string, number] => [c.pathname!, c.count]).sort(byCount)
      .map(([pathname, n]) => ({ pathname, count: n }));
    return {
      t: new Date(w.from.getTime() + i * bucketMs).toISOString(),
      total: own.reduce((sum, c) => sum + c.count, 0),
      byPage,
    };
  });

  const distribution = pageDistribution(sessions);
  const totalActiveTime = rows.reduce((sum, s) => sum + s.duration, 0);
  const ends = rows.map((s) => (s.ended_at ?? s.started_at).getTime());
  return {
    range: input.range,
    from: w.from.toISOString(),
    to: w.to.toISOString(),
    bucketMs,
    buckets,
    pageDistribution: distribution,
    summary: {
      sessionCount: rows.length,
      totalActiveTime,
      avgSessionDuration: rows.length ? Math.round(totalActiveTime / rows.length) : 0,
      totalEvents: rows.reduce((sum, s) => sum + s.event_count, 0),
      uniquePages: distribution.length,
      topPage: distribution[0]?.pathname ?? null,
      firstEventAt: rows.length ? rows[0].started_at.toISOString() : null,
      lastEventAt: ends.length ? new Date(Math.max(...ends)).toISOString() : null,
    },
  };
}
