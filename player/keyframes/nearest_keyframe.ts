// Where a seek starts from: the nearest keyframe before the target put in place, unless going on
// from what is drawn replays less; and whether the span from there is replayed on rrweb's virtual
// copy (long) or straight on the shown document (short).
import type { Replayer } from "rrweb";
import type { HeldScrolls } from "@/player/dom/held_scrolls.ts";
import { restoreKeyframe } from "./keyframe.ts";
import type { KeyframeScout } from "./keyframe_scout.ts";
import type { Recording } from "@/player/load/recording.ts";
import { lastPlayedEvent } from "@/player/dom/replayer_internals.ts";

/**
 * Up to this many events a seek applies straight to the shown document; more are replayed on
 * rrweb's virtual copy (editormd's whole recording to its end: 1.5 s straight, ~1 s virtual).
 */
const DIRECT_SPAN_EVENTS = 500;

/**
 * Before rrweb jumps to the events before `limit` (epoch ms, exclusive): puts the nearest keyframe
 * in place when it is nearer than what is drawn. Returns whether the rest of the span is long
 * enough for rrweb's virtual copy.
 */
export function restoreNearestKeyframe(
  replayer: Replayer,
  recording: Recording,
  scout: KeyframeScout | null,
  scrolls: HeldScrolls,
  limit: number,
): boolean {
  // A keyframe of the target's page taken at or before the target serves.
  const page = recording.pageStart(limit - 1);
  const keyframe = scout?.keyframes.before(limit, page) ?? null;
  const drawn = lastPlayedEvent(replayer)?.timestamp ?? -Infinity;
  const fromDrawn = drawn < limit && (!keyframe || keyframe.timestamp <= drawn);
  if (keyframe && !fromDrawn) restoreKeyframe(replayer, keyframe, scrolls);
  // A short span is applied to the DOM directly, which beats rrweb's virtual copy of the whole
  // document; a long one (no keyframe near yet) is replayed on that copy and diffed in once.
  const from = fromDrawn ? drawn : keyframe?.timestamp ?? -Infinity;
  const replayed = from === -Infinity ? Infinity : recording.countBetween(from, limit);
  return replayed > DIRECT_SPAN_EVENTS;
}
