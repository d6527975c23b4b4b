// The replay's two timelines: the real one of the recording (ms since the session start) and the
// displayed one, where compress idle shows every idle gap as exactly 5 s (docs/decisions.md
// "Replay"). Only the seek bar's geometry is displayed time; every moment a person reads or types
// (the clock, the bar's hover label, comments, `?t=`, a link's window) and every step is real.

/** A gap strictly longer than this between consecutive events is idle. */
export const IDLE_THRESHOLD_MS = 30_000;
/** What compress idle shrinks each idle gap to. */
export const COMPRESSED_IDLE_MS = 5_000;

/** An idle gap in real offsets from the session start: from the event before to the one after. */
export interface IdleGap {
  start: number;
  end: number;
}

/**
 * The idle gaps of a timestamp-sorted event stream, as offsets from `sessionStart`, from time 0 on:
 * a player whose time 0 is a moment after the first event (a public link's window, which starts
 * from an earlier snapshot) shows no gap before it.
 */
export function idleGaps(timestamps: readonly number[], sessionStart: number): IdleGap[] {
  const gaps: IdleGap[] = [];
  for (let i = 1; i < timestamps.length; i++) {
    const end = timestamps[i] - sessionStart;
    if (timestamps[i] - timestamps[i - 1] > IDLE_THRESHOLD_MS && end > 0) {
      gaps.push({ start: Math.max(timestamps[i - 1] - sessionStart, 0), end });
    }
  }
  return gaps;
}

/** The gap holding `real` (start inclusive, end exclusive), or null. */
export function gapAt(gaps: readonly IdleGap[], real: number): IdleGap | null {
  return gaps.find((g) => g.start <= real && real < g.end) ?? null;
}

/** Maps real offsets to displayed offsets and back; the identity when compression is off. */
export class Timeline {
  constructor(
    readonly gaps: readonly IdleGap[],
    readonly realDuration: number,
    readonly compress: boolean,
  ) {}

  /** Displayed length of the whole session. */
  get displayDuration(): number {
    return this.toDisplay(this.realDuration);
  }

  toDisplay(real: number): number {
    if (!this.compress) return real;
    let removed = 0;
    for (const gap of this.gaps) {
      if (real <= gap.start) break;
      const length = gap.end - gap.start;
      const into = Math.min(real, gap.end) - gap.start;
      // Inside a gap, real time maps proportionally onto its 5 s.
      removed += into - into * COMPRESSED_IDLE_MS / length;
    }
    return real - removed;
  }

  toReal(display: number): number {
    if (!this.compress) return display;
    let added = 0;
    for (const gap of this.gaps) {
      const shownStart = gap.start - added;
      if (display <= shownStart) break;
      const length = gap.end - gap.start;
      const into = Math.min(display - shownStart, COMPRESSED_IDLE_MS);
      added += into * length / COMPRESSED_IDLE_MS - into;
    }
    return display + added;
  }

  /** `by` ms of real time from `real`, within the session: the ±5 s buttons and arrow keys. */
  step(real: number, by: number): number {
    return Math.min(Math.max(real + by, 0), this.realDuration);
  }

  /** Playback speed inside `gap` that shows it in compressed time at `speed`. */
  static gapSpeed(gap: IdleGap, speed: number): number {
    return speed * (gap.end - gap.start) / COMPRESSED_IDLE_MS;
  }
}
