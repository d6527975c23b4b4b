// Whether the player opened at a moment (controller.ts) builds rrweb only once that moment is in
// (whether it is in: the feed's `reaches`, player/load/session_feed.ts).
import type { Recording } from "@/player/load/recording.ts";

/**
 * Opened at a moment (`?t=`, or a public link's window whose 0 comes after the first event): rrweb
 * is built once the moment's events are in, and pauses there at once. Built earlier, it would draw
 * its first snapshot by itself and then again at the moment (two full rebuilds), and take the events
 * in between one `addEvent` at a time.
 */
export function opensAtMoment(recording: Recording, start: number): boolean {
  const first = recording.events[0]?.timestamp ?? Infinity;
  return start > 0 || first < recording.sessionStart;
}
