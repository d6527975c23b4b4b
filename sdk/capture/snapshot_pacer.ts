// When to take a full snapshot besides rrweb's 5-minute checkout (`CHECKOUT_EVERY_MS`): once the
// events since the last snapshot outweigh it SNAPSHOT_WEIGHT times, at least SNAPSHOT_GAP_MS after
// it. A replay opened at a moment decodes and replays from the last snapshot before it, so on a
// busy page this bounds that work to a few snapshots' worth; on a quiet page with a heavy DOM it
// adds almost nothing to what is stored. The study behind the numbers: bench/RESULTS.md, "SDK
// full-snapshot interval" (bench/replay/snapshot_interval.ts).

import { EventType } from "@rrweb/types";

/** A new snapshot once the events since the last one weigh this many times it... */
export const SNAPSHOT_WEIGHT = 2;
/** ...and this long after it, so a busy page's visitor pays a snapshot's work at most this often. */
export const SNAPSHOT_GAP_MS = 30_000;

export class SnapshotPacer {
  #snapshotBytes = Infinity;
  #since = 0;
  #lastAt = -Infinity;
  #asked = false;

  /**
   * Counts one recorded event of `bytes` (its JSON); true when a full snapshot is due now (once:
   * then not again until a snapshot is counted).
   */
  add(event: { type: number; timestamp: number }, bytes: number): boolean {
    if (event.type === EventType.FullSnapshot) {
      this.#snapshotBytes = bytes;
      this.#since = 0;
      this.#lastAt = event.timestamp;
      this.#asked = false;
      return false;
    }
    this.#since += bytes;
    const due = !this.#asked && this.#since > SNAPSHOT_WEIGHT * this.#snapshotBytes &&
      event.timestamp - this.#lastAt >= SNAPSHOT_GAP_MS;
    if (due) this.#asked = true;
    return due;
  }
}
