// The seek bar's idle bands (docs/decisions.md "Replay"): each idle stretch where the bar shows it
// (5 s of the bar with compress idle on), named by its real length and what playing does with it,
// so a bar shorter than the session says where its time went.
import { COMPRESSED_IDLE_MS, type Timeline } from "@/player/play/timeline.ts";
import { idleLabel } from "./history.ts";

export interface IdleBand {
  /** Real offset of the stretch's start (its key). */
  real: number;
  /** Where the band starts and how long it is on the bar, in displayed ms. */
  start: number;
  length: number;
  /** "Idle 2 min 5 s skipped": History's name for the stretch, and what playing does with it. */
  label: string;
}

export function idleBands(timeline: Timeline, skipIdle: boolean): IdleBand[] {
  const played = skipIdle
    ? " skipped"
    : timeline.compress
    ? ` played in ${COMPRESSED_IDLE_MS / 1000} s`
    : "";
  return timeline.gaps.map((gap) => {
    const start = timeline.toDisplay(gap.start);
    return {
      real: gap.start,
      start,
      length: timeline.toDisplay(gap.end) - start,
      label: idleLabel(gap.end - gap.start) + played,
    };
  });
}

/** The band under displayed offset `display` (start inclusive, end exclusive), or null. */
export function bandAt(bands: readonly IdleBand[], display: number): IdleBand | null {
  return bands.find((b) => b.start <= display && display < b.start + b.length) ?? null;
}
