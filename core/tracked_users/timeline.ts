// A tracked user's timeline: the sessions touching the window (started by its end, ended after its
// start or still open), each cut into periods from one url marker to the next (the last to the
// session end, or `to` while open). Choices made here: sessions oldest first; an open session has
// endedAt null and its stored duration (0); periods are not cut to the window; `pages` lists
// distinct pathnames in order of first visit.
//
// Bounded answer: a user with 20,000 sessions in a week made a 6.9 MB answer. The
// timeline returns at most TIMELINE_LIMITS.sessions sessions — the newest by start, still listed
// oldest first — and at most TIMELINE_LIMITS.periods periods per session (its first ones; the last
// kept one still ends at the next marker). `totalSessions` counts the window's sessions and
// `truncated` says whether anything was left out, so a client can say "the newest 200 of 5,000"
// and link to the per-user sessions list, which pages through all of them. `pages` covers the
// returned periods. The sessions are cut by count, not aggregated, so every returned one is exact.
import type { AppDeps } from "@/core/deps.ts";
import { findTrackedUser } from "@/db/queries/tracked_users/detail.ts";
import { type TimelineSessionRow, timelineSessions } from "@/db/queries/tracked_users/timeline.ts";
import { notFound } from "@/core/errors.ts";
import { activeOrganization } from "@/core/org_access.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { Period, TimelineSession, TrackedUserTimeline } from "./schema.ts";
import { storedIso } from "@/core/stored_time.ts";

type Deps = Pick<AppDeps, "db">;
const HOUR_MS = 3_600_000;

/** At most 200 × 50 periods of ~150 bytes of JSON: 1.5 MB in the worst case, ~70 KB typically. */
export const TIMELINE_LIMITS = { sessions: 200, periods: 50 } as const;

export const RANGES = { "6h": 6 * HOUR_MS, "24h": 24 * HOUR_MS, "7d": 168 * HOUR_MS } as const;
export type Range = keyof typeof RANGES;

export interface Window {
  range: Range;
  from: Date;
  to: Date;
}

export function windowOf(range: Range, now: Date): Window {
  return { range, from: new Date(now.getTime() - RANGES[range]), to: now };
}

/** The user's id once they are in the viewer's active organization; 404 otherwise. */
export async function userInOrganization(deps: Deps, viewer: Viewer, id: string) {
  const user = await findTrackedUser(deps.db.kysely, activeOrganization(viewer), id);
  if (!user) throw notFound("tracked user");
  return user;
}

/**
 * Sessions with their periods: each url marker runs to the next, the last to the end or `to`; at
 * most `maxPeriods` periods per session (a marker beyond them still ends the last one kept).
 */
export function sessionsWithPeriods(
  sessions: TimelineSessionRow[],
  to: Date,
  maxPeriods = Infinity,
): TimelineSession[] {
  return sessions.map((s) => {
    const end = (s.ended_at ?? to).getTime();
    const periods = s.markers.map(([ts, url, pathname], i): Period => {
      const until = Math.max(ts, i + 1 < s.markers.length ? s.markers[i + 1][0] : end);
      return {
        url,
        pathname,
        startedAt: new Date(ts).toISOString(),
        endedAt: new Date(until).toISOString(),
        duration: until - ts,
      };
    }).slice(0, maxPeriods);
    return {
      id: s.id,
      externalId: s.external_id,
      startedAt: s.started_at.toISOString(),
      endedAt: storedIso(s.ended_at),
      duration: s.duration,
      url: s.url,
      periods,
    };
  });
}

export async function trackedUserTimeline(
  deps: Deps,
  viewer: Viewer,
  id: string,
  range: Range,
  now = new Date(),
): Promise<TrackedUserTimeline> {
  await userInOrganization(deps, viewer, id);
  const w = windowOf(range, now);
  const { sessions: sessionLimit, periods: periodLimit } = TIMELINE_LIMITS;
  // One marker more than the periods kept: it ends the last period kept and reveals the cut.
  const rows = await timelineSessions(deps.db.kysely, id, w, {
    sessions: sessionLimit,
    markers: periodLimit + 1,
  });
  const sessions = sessionsWithPeriods(rows, w.to, periodLimit);
  // Distinct pathnames in order of first visit.
  const pages = [...new Set(sessions.flatMap((s) => s.periods.map((p) => p.pathname)))]
    .filter((p): p is string => p !== null);
  const totalSessions = rows[0]?.total ?? 0;
  const truncated = totalSessions > rows.length || rows.some((r) => r.markers.length > periodLimit);
  return {
    range,
    from: w.from.toISOString(),
    to: w.to.toISOString(),
    sessions,
    pages,
    totalSessions,
    truncated,
  };
}
