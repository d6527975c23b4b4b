// Where rrweb must stop to show a real offset (ms from the session start), given the real offset of
// rrweb's own time 0 (`shift`): every event stamped at or before the moment is shown.
import { EventType } from "@rrweb/types";
import type { Recording } from "@/player/load/recording.ts";

/**
 * Exclusive end (epoch ms) of the events that show `position`: every event stamped at or before
 * the session start + `position`. rrweb's `pause(offset)` replays only events strictly before its
 * target, so a seek to the millisecond of a mutation would leave that mutation out.
 */
export function showLimit(recording: Recording, position: number, shift: number): number {
  const target = Math.floor(recording.sessionStart + Math.max(position, shift));
  return recording.shownUntil(target) + 1;
}

/** rrweb's offset for `pause` that shows `position` (see `showLimit`). */
export function pauseOffset(recording: Recording, position: number, shift: number): number {
  return showLimit(recording, position, shift) - (recording.sessionStart + shift);
}

/** rrweb's offset for `play` from `position`. */
export function playOffset(position: number, shift: number): number {
  return Math.max(position - shift, 0);
}

/**
 * Whether rrweb's own first draw (the first full snapshot alone) shows `position`: not when events
 * after that snapshot are stamped at or before it, as a public link's page at its window's start is
 * (a snapshot, then the inputs, scrolls and style changes it does not hold, all at the start).
 */
export function drawsItself(recording: Recording, position: number, shift: number): boolean {
  if (position > shift) return false;
  const { events } = recording;
  const first = events.findIndex((e) => e.type === EventType.FullSnapshot);
  return first < 0 || first + 1 >= events.length ||
    events[first + 1].timestamp >= showLimit(recording, position, shift);
}
