// Links from the user page into a replay, and the short local times its charts print.
import type { Period, TimelineSession } from "../core/tracked_users/schema.ts";

/** The replay at the period's start: `t` is ms from the session start (the replay page's `?t=`). */
export function replayHref(session: Pick<TimelineSession, "id" | "startedAt">, period?: Period) {
  const base = `/replays/${encodeURIComponent(session.id)}`;
  if (!period) return base;
  const t = Math.max(0, Math.round(Date.parse(period.startedAt) - Date.parse(session.startedAt)));
  return `${base}?t=${t}`;
}

const short = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** "Thu 12 Mar, 14:05:09" in the runtime's (the viewer's) time zone. */
export function shortTime(iso: string): string {
  return short.format(new Date(iso));
}
