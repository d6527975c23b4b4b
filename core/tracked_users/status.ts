// Tracked-user status from the latest session end (docs/decisions.md "Tracked users"): the
// thresholds as windows that the SQL filters and the JS checks share.
import { LIVE_WITHIN_MS } from "@/core/sessions/live.ts";

const DAY_MS = 86_400_000;

export const STATUSES = ["ONLINE", "ACTIVE_24H", "IDLE_7D", "DORMANT"] as const;
export type TrackedUserStatus = typeof STATUSES[number];

/** Lower bounds (inclusive) of each status's lastEventAt at `now`; DORMANT is everything older. */
export interface StatusBounds {
  online: Date;
  day: Date;
  week: Date;
}

export function statusBounds(now: Date): StatusBounds {
  const t = now.getTime();
  return {
    // Online while their latest session can still grow (inclusive).
    online: new Date(t - LIVE_WITHIN_MS),
    day: new Date(t - DAY_MS),
    week: new Date(t - 7 * DAY_MS),
  };
}

/** The status of a user whose latest session ended at `lastEventAt` (null: no sessions). */
export function statusAt(lastEventAt: Date | null, now: Date): TrackedUserStatus {
  if (!lastEventAt) return "DORMANT";
  const b = statusBounds(now);
  if (lastEventAt >= b.online) return "ONLINE";
  if (lastEventAt >= b.day) return "ACTIVE_24H";
  if (lastEventAt >= b.week) return "IDLE_7D";
  return "DORMANT";
}

/** A heartbeat's answer for one user. */
export interface Beat {
  online: boolean;
  lastEventAt: string | null;
}

/** The status to show: the heartbeat's when there is one (online is its call), else the list's. */
export function liveStatus(
  listed: TrackedUserStatus,
  beat: Beat | undefined,
  now: Date,
): TrackedUserStatus {
  if (!beat) return listed;
  if (beat.online) return "ONLINE";
  const status = statusAt(beat.lastEventAt ? new Date(beat.lastEventAt) : null, now);
  return status === "ONLINE" ? "ACTIVE_24H" : status;
}
