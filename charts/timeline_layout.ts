// Where the timeline draws each session: one bar per session on the window's time axis, in lanes
// so overlapping (or visually touching) bars never cover each other, split into its page periods;
// what is left of a bar outside every period, and the gaps between a lane's sessions, are idle.
import type { TimelineSession, TrackedUserTimeline } from "@/core/tracked_users/schema.ts";

export interface Segment {
  /** Index into the session's periods. */
  period: number;
  pathname: string | null;
  /** Epoch ms, clipped to the window. */
  start: number;
  end: number;
}

export interface Bar {
  session: TimelineSession;
  lane: number;
  /** Epoch ms, clipped to the window; an open session runs to the window's end. */
  start: number;
  end: number;
  segments: Segment[];
}

export interface Gap {
  lane: number;
  start: number;
  end: number;
}

export interface TimelineLayout {
  from: number;
  to: number;
  lanes: number;
  bars: Bar[];
  gaps: Gap[];
}

export interface LayoutOptions {
  /** Beyond this many lanes, a bar goes to the lane that frees up first (and may overlap). */
  maxLanes: number;
  /** The narrowest a bar is drawn, as a fraction of the window (so every session is visible). */
  minWidth: number;
}

const clip = (t: number, from: number, to: number) => Math.min(to, Math.max(from, t));

export function layoutTimeline(
  timeline: Pick<TrackedUserTimeline, "from" | "to" | "sessions">,
  { maxLanes, minWidth }: LayoutOptions,
): TimelineLayout {
  const from = Date.parse(timeline.from), to = Date.parse(timeline.to);
  const minSpan = (to - from) * minWidth;
  const laneEnds: number[] = [];
  const lastInLane: Bar[] = [];
  const bars: Bar[] = [];
  const gaps: Gap[] = [];
  const sorted = timeline.sessions.toSorted((a, b) => a.startedAt.localeCompare(b.startedAt));
  for (const session of sorted) {
    const start = clip(Date.parse(session.startedAt), from, to);
    const end = clip(session.endedAt ? Date.parse(session.endedAt) : to, from, to);
    const drawnEnd = Math.max(end, start + minSpan);
    let lane = laneEnds.findIndex((laneEnd) => laneEnd + minSpan / 2 <= start);
    if (lane < 0 && laneEnds.length < maxLanes) lane = laneEnds.length;
    if (lane < 0) lane = laneEnds.indexOf(Math.min(...laneEnds));
    const segments = session.periods.flatMap((p, period): Segment[] => {
      const s = clip(Date.parse(p.startedAt), from, to), e = clip(Date.parse(p.endedAt), from, to);
      return e > s ? [{ period, pathname: p.pathname, start: s, end: e }] : [];
    });
    const bar = { session, lane, start, end, segments };
    const previous = lastInLane[lane];
    if (previous && start > previous.end) gaps.push({ lane, start: previous.end, end: start });
    laneEnds[lane] = Math.max(laneEnds[lane] ?? -Infinity, drawnEnd);
    lastInLane[lane] = bar;
    bars.push(bar);
  }
  return { from, to, lanes: Math.max(1, laneEnds.length), bars, gaps };
}
