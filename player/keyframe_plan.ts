// The bookkeeping of player-side keyframes, free of the DOM: which keyframe serves a seek, where the
// scout's next fast-forward step ends, how big steps should be, and when a keyframe is due.
import { EventType } from "@rrweb/types";

/** Scout work (ms) after which a keyframe is taken: a seek never fast-forwards much more. */
export const KEYFRAME_WORK_MS = 30;
/** A scout step aims at this much work, so it never holds the main thread for long. */
export const STEP_TARGET_MS = 16;

export interface Stamped {
  timestamp: number;
}

/** Keyframes sorted by timestamp. */
export class KeyframeList<K extends Stamped> {
  readonly items: K[] = [];

  add(keyframe: K) {
    const last = this.items.at(-1);
    if (last && keyframe.timestamp <= last.timestamp) this.items.pop();
    this.items.push(keyframe);
  }

  /** The latest keyframe strictly before `timestamp` (rrweb replays events before its target). */
  before(timestamp: number): K | null {
    let low = 0, high = this.items.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.items[mid].timestamp < timestamp) low = mid + 1;
      else high = mid;
    }
    return low > 0 ? this.items[low - 1] : null;
  }

  clear() {
    this.items.length = 0;
  }
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
