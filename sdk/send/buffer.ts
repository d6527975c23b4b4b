// The in-memory event buffer: bounded at 10,000 events, oldest dropped first, with its encoded
// size tracked; plus the request cutting rule (≤ 500 events and ≤ 2 MiB per request, in order).

import { type EncodedEvent, follows } from "./encoded_event.ts";

/** Most events one ingest request may carry (the service refuses more). */
export const MAX_EVENTS_PER_REQUEST = 500;
/**
 * Most uncompressed JSON per request (internal safeguard): keeps the service's work per request
 * bounded, far below its decoded-body limit. An event larger than this goes alone.
 */
export const MAX_REQUEST_BYTES = 2 * 1024 * 1024;
/**
 * Buffered JSON that triggers a flush (internal safeguard beside batchSize): a heavy page buffers
 * megabytes between flushes otherwise, and every upload would then be one long burst of work.
 */
export const FLUSH_BYTES = 1024 * 1024;

/** A FIFO of encoded events that never holds more than `ceiling` of them. */
export class EventBuffer {
  #events: EncodedEvent[] = [];
  #bytes = 0;
  #dropped = 0;

  constructor(readonly ceiling: number) {}

  get length(): number {
    return this.#events.length;
  }

  /** UTF-8 size of the buffered events' JSON. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Events discarded by the ceiling since the buffer was created. */
  get dropped(): number {
    return this.#dropped;
  }

  push(event: EncodedEvent): void {
    this.#events.push(event);
    this.#bytes += event.bytes;
    this.#trim();
  }

  /** Puts events back in front of newer ones (a failed flush), keeping the ceiling. */
  unshift(events: EncodedEvent[]): void {
    if (events.length === 0) return;
    this.#events = events.concat(this.#events);
    for (const e of events) this.#bytes += e.bytes;
    this.#trim();
  }

  /** The buffered events, oldest first, left in place. */
  peek(): readonly EncodedEvent[] {
    return this.#events;
  }

  /** Removes and returns every buffered event, oldest first. */
  takeAll(): EncodedEvent[] {
    const events = this.#events;
    this.clear();
    return events;
  }

  clear(): void {
    this.#events = [];
    this.#bytes = 0;
  }

  #trim(): void {
    const excess = this.#events.length - this.ceiling;
    if (excess <= 0) return;
    for (const e of this.#events.splice(0, excess)) this.#bytes -= e.bytes;
    this.#dropped += excess;
  }
}

/**
 * Cuts events into consecutive requests of at most `maxEvents` events and `maxBytes` of JSON,
 * preserving order; an event larger than `maxBytes` on its own is a request by itself. A request
 * is also one run of its page's sequence (sdk/send/encoded_event.ts `follows`), so its first event's
 * number gives every other's.
 */
export function cutBatches(
  events: EncodedEvent[],
  maxEvents = MAX_EVENTS_PER_REQUEST,
  maxBytes = MAX_REQUEST_BYTES,
): EncodedEvent[][] {
  const out: EncodedEvent[][] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < events.length; i++) {
    const size = events[i].bytes + 1; // the comma
    const full = i - start >= maxEvents || bytes + size > maxBytes;
    if (i > start && (full || !follows(events[i - 1], events[i]))) {
      out.push(events.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += size;
  }
  if (start < events.length) out.push(events.slice(start));
  return out;
}
