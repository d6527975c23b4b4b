// The in-memory event buffer: bounded at 10,000 events, oldest dropped first, plus the batch
// cutting rule (at most 500 events per ingest request, in order).

import type { RecordedEvent } from "./types.ts";

/** Most events one ingest request may carry (spec §8). */
export const MAX_EVENTS_PER_REQUEST = 500;

/** A FIFO of events that never holds more than `ceiling` of them. */
export class EventBuffer {
  #events: RecordedEvent[] = [];
  #dropped = 0;

  constructor(readonly ceiling: number) {}

  get length(): number {
    return this.#events.length;
  }

  /** Events discarded by the ceiling since the buffer was created. */
  get dropped(): number {
    return this.#dropped;
  }

  push(event: RecordedEvent): void {
    this.#events.push(event);
    this.#trim();
  }

  /** Puts events back in front of newer ones (a failed flush), keeping the ceiling. */
  unshift(events: RecordedEvent[]): void {
    if (events.length === 0) return;
    this.#events = events.concat(this.#events);
    this.#trim();
  }

  /** Removes and returns every buffered event, oldest first. */
  takeAll(): RecordedEvent[] {
    const events = this.#events;
    this.#events = [];
    return events;
  }

  clear(): void {
    this.#events = [];
  }

  #trim(): void {
    const excess = this.#events.length - this.ceiling;
    if (excess > 0) {
      this.#events.splice(0, excess);
      this.#dropped += excess;
    }
  }
}

/** Cuts events into consecutive batches of at most `size`, preserving order. */
export function chunk<T>(items: T[], size = MAX_EVENTS_PER_REQUEST): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
