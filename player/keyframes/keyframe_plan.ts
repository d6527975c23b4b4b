// The bookkeeping of player-side keyframes, free of the DOM: which keyframe serves a seek, which
// stretch of the recording gets keyframes next, where the scout's next fast-forward step ends, how
// big steps should be, and when a keyframe is due.
import { EventType } from "@rrweb/types";

/** Scout work (ms) after which a keyframe is taken: a seek never fast-forwards much more. */
export const KEYFRAME_WORK_MS = 30;
/** A scout step aims at this much work, so it never holds the main thread for long. */
export const STEP_TARGET_MS = 16;

export interface Stamped {
  timestamp: number;
  /** Timestamp of the Meta its replay started from: it depends on the events in [base, timestamp]. */
  base: number;
}

/** Keyframes sorted by timestamp, built in any order. */
export class KeyframeList<K extends Stamped> {
  readonly items: K[] = [];

  add(keyframe: K) {
    const at = this.#firstFrom(keyframe.timestamp);
    const same = this.items[at]?.timestamp === keyframe.timestamp;
    this.items.splice(at, same ? 1 : 0, keyframe);
  }

  /**
   * The latest keyframe strictly before `timestamp` (rrweb replays events before its target), if
   * it was built from the Meta at `base` or a later one: rrweb rebuilds from the last Meta before
   * its target anyway, so a keyframe of an earlier page would be put back for nothing.
   */
  before(timestamp: number, base = -Infinity): K | null {
    const keyframe = this.items[this.#firstFrom(timestamp) - 1] ?? null;
    return keyframe && keyframe.base >= base ? keyframe : null;
  }

  /** Drops the keyframes that miss one of `added` (epoch ms, sorted): one in [base, timestamp]. */
  dropStale(added: readonly number[]) {
    const stale = (k: K) => {
      const first = firstAtOrAfter(added, k.base, Number);
      return first < added.length && added[first] <= k.timestamp;
    };
    const kept = this.items.filter((k) => !stale(k));
    this.items.splice(0, this.items.length, ...kept);
  }

  clear() {
    this.items.length = 0;
  }

  /** Index of the first keyframe stamped at or after `timestamp`. */
  #firstFrom(timestamp: number): number {
    return firstAtOrAfter(this.items, timestamp, (k) => k.timestamp);
  }
}

function firstAtOrAfter<T>(
  sorted: readonly T[],
  value: number,
  key: (item: T) => number,
): number {
  let low = 0, high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (key(sorted[mid]) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * A stretch of the stream that rrweb replays from its own Meta on (it discards everything before
 * the last Meta at or before a target): `start` is the Meta's index, `end` the next Meta's (or the
 * stream's length). Keyframes of one segment depend on none of another's events.
 */
export interface Segment {
  start: number;
  end: number;
}

export function segments(events: readonly { type: number }[]): Segment[] {
  const found: Segment[] = [];
  events.forEach((event, i) => {
    if (event.type !== EventType.Meta) return;
    const last = found.at(-1);
    if (last) last.end = i;
    found.push({ start: i, end: events.length });
  });
  return found;
}

/**
 * The next segment to build keyframes for, given how far each is built (the timestamp of the last
 * event covered, by its Meta): the one the viewer is in (`focus`, epoch ms) first, then those after
 * it (seeks mostly go ahead, and the scout plays on into them without a rebuild), then those before
 * it, nearest first. Null when every segment is built to its last event.
 */
export function nextSegment<E extends { type: number; timestamp: number }>(
  all: readonly Segment[],
  events: readonly E[],
  focus: number,
  builtUntil: (meta: E) => number,
): Segment | null {
  let here = 0;
  while (here + 1 < all.length && events[all[here + 1].start].timestamp <= focus) here++;
  const order = [...all.slice(here), ...all.slice(0, here).reverse()];
  return order.find((s) => builtUntil(events[s.start]) < events[s.end - 1].timestamp) ?? null;
}

/**
 * Index of the last event of the step starting at `from`: at most `size` events, ending early on
 * a full snapshot (a keyframe follows every rebuild, so a seek past it never rebuilds again), and
 * never between events of the same timestamp (rrweb applies those together).
 */
export function stepEnd(
  events: readonly { type: number; timestamp: number }[],
  from: number,
  size: number,
): number {
  let end = Math.min(from + Math.max(size, 1), events.length) - 1;
  for (let i = from; i <= end; i++) {
    if (events[i].type === EventType.FullSnapshot) {
      end = i;
      break;
    }
  }
  while (end + 1 < events.length && events[end + 1].timestamp === events[end].timestamp) end++;
  return end;
}

/** The next step's size in events, from how long the last one took. */
export function nextStepSize(size: number, tookMs: number): number {
  if (tookMs > STEP_TARGET_MS * 1.5) return Math.max(1, Math.floor(size / 2));
  if (tookMs < STEP_TARGET_MS / 2) return Math.min(size * 2, 1_000);
  return size;
}

/** A keyframe is due after a rebuild, or once enough work was done since the last one. */
export function keyframeDue(lastType: number, workSinceKeyframe: number): boolean {
  return lastType === EventType.FullSnapshot || workSinceKeyframe >= KEYFRAME_WORK_MS;
}
