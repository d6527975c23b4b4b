// A tracked user's timeline (spec §4): the sessions touching the window, each cut into periods
// from one url marker to the next (the last to the session end, or `to` while open). Open choices:
// sessions oldest first; an open session has endedAt null and its stored duration (0); periods are
// not cut to the window; `pages` lists distinct pathnames in order of first visit.
import type { AppDeps } from "../app_deps.ts";
import { findTrackedUser } from "../db/queries/tracked_user.ts";
import { type WindowSessionRow, windowSessions } from "../db/queries/tracked_user_activity.ts";
import { notFound } from "./errors.ts";
import { activeOrganization } from "./org_access.ts";
import type { Viewer } from "./viewer.ts";

type Deps = Pick<AppDeps, "db">;
const HOUR_MS = 3_600_000;

export const RANGES = { "6h": 6 * HOUR_MS, "24h": 24 * HOUR_MS, "7d": 168 * HOUR_MS } as const;
export type Range = keyof typeof RANGES;

export interface Period {
  url: string | null;
  pathname: string | null;
  startedAt: string;
  endedAt: string;
  duration: number;
}

export interface TimelineSession {
  id: string;
  externalId: string;
  startedAt: string;
  endedAt: string | null;
  duration: number;
  url: string | null;
  periods: Period[];
}

export interface Window {
  range: Range;
  from: Date;
  to: Date;
}

export function windowOf(range: Range, now: Date): Window {
  return { range, from: new Date(now.getTime() - RANGES[range]), to: now };
}

/** The user's id once they are in the viewer's active organisation; 404 otherwise. */
export async function userInOrganization(deps: Deps, viewer: Viewer, id: string) {
  const user = await findTrackedUser(deps.db.kysely, activeOrganization(viewer), id);
  if (!user) throw notFound("tracked user");
  return user;
}

/** Sessions with their periods: each url marker runs to the next, the last to the end or `to`. */
export function sessionsWithPeriods(sessions: WindowSessionRow[], to: Date): TimelineSession[] {
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
    });
    return {
      id: s.id,
      externalId: s.external_id,
      startedAt: s.started_at.toISOString(),
      endedAt: s.ended_at?.toISOString() ?? null,
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
) {
  await userInOrganization(deps, viewer, id);
  const w = windowOf(range, now);
  const rows = await windowSessions(deps.db.kysely, id, w.from, w.to);
  const sessions = sessionsWithPeriods(rows, w.to);
  // Distinct pathnames in order of first visit.
  const pages = [...new Set(sessions.flatMap((s) => s.periods.map((p) => p.pathname)))]
    .filter((p): p is string => p !== null);
  return { range, from: w.from.toISOString(), to: w.to.toISOString(), sessions, pages };
}
