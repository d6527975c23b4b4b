// Links from the user page into a replay, and the short local times its charts print.
import type { Period, TimelineSession } from "@/core/tracked_users/schema.ts";
import { replayHref } from "@/page_state/replay.ts";

/** The session's replay, at the period's start (ms from the session's) when one is given. */
export function periodReplayHref(
  session: Pick<TimelineSession, "id" | "startedAt">,
  period?: Period,
): string {
  return replayHref(
    session.id,
    period && Date.parse(period.startedAt) - Date.parse(session.startedAt),
  );
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
