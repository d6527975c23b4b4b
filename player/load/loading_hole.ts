// Real offsets [start, end) whose events are not loaded while later ones are (loading jumped ahead
// to a moment, player/load/loading_plan.ts): part of the feed's loading state (session_feed.ts).
// The player waits there, and what arrives for them goes into rrweb's stream unapplied
// (player/dom/build_replayer.ts addToReplayer).

export class LoadingHole {
  #span: { start: number; end: number } | null;

  /** Opened at a moment: everything is a hole until that moment's first batch says where it ends. */
  constructor(openedAtMoment: boolean) {
    this.#span = openedAtMoment ? { start: -Infinity, end: Infinity } : null;
  }

  /** Loading jumps ahead: what is loaded ends at `start`; the jump's first batch sets the end. */
  open(start: number) {
    this.#span = { start, end: Infinity };
  }

  /** The first batch loaded after the hole starts at this real offset. */
  endsAt(end: number) {
    if (this.#span) this.#span.end = Math.max(end, this.#span.start);
  }

  /** Every batch of the hole is in. */
  close() {
    this.#span = null;
  }

  has(real: number): boolean {
    return this.#span !== null && this.#span.start <= real && real < this.#span.end;
  }
}
