// Real offsets [start, end) whose events are not loaded while later ones are (loading jumped ahead
// to a moment, player/load/loading_plan.ts): the player waits there, and what arrives for them goes
// into rrweb's stream unapplied.
import type { Replayer } from "rrweb";
import type { RecordedEvent } from "@/player/decode/decode.ts";
import { insertUnapplied } from "@/player/dom/replayer_internals.ts";

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

/**
 * Adds loaded events to rrweb. Events of the hole go into its stream unapplied: its `addEvent`
 * would apply them at once over what is shown, which starts at a later snapshot. Returns whether
 * they did (rrweb's time 0 then moves with its first event).
 */
export function addToReplayer(
  replayer: Replayer,
  events: RecordedEvent[],
  inHole: (event: RecordedEvent) => boolean,
): boolean {
  if (events.every(inHole) && insertUnapplied(replayer, events)) return true;
  for (const event of events) replayer.addEvent(event);
  return false;
}
