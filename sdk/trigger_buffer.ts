// The memory of a session sampling left out, until a trigger records it: events in segments that
// each open with a Meta + full snapshot, kept so that a trigger at T finds the latest segment that
// began at least PRE_TRIGGER_MS before T (or the page's first, if the page is younger). Older
// segments are dropped as soon as a newer one qualifies, so with a snapshot at least every
// `bufferMs` (the caller's timer) the recording starts between 30 s and bufferMs + 30 s before T.
//
// Bounded: at most MAX_BUFFER_BYTES of event JSON and MAX_BUFFER_EVENTS events. Past either, the
// oldest whole segments go (a recording never starts without its snapshot); when the newest alone
// is past it, it goes too and the caller takes a fresh snapshot (`overflowed()` says so).

import type { EncodedEvent } from "./encoded_event.ts";
import { PRE_TRIGGER_MS } from "@/core/projects/recording_limits.ts";
import { MAX_BUFFERED_EVENTS } from "./options.ts";

export const MAX_BUFFER_BYTES = 8 * 1024 * 1024;
/** The flusher's ceiling too, so what a trigger releases always fits in it. */
export const MAX_BUFFER_EVENTS = MAX_BUFFERED_EVENTS;
const META = 4;

interface Segment {
  start: number;
  events: EncodedEvent[];
}

export class TriggerBuffer {
  #segments: Segment[] = [];
  #bytes = 0;
  #events = 0;
  #overflowed = false;

  constructor(
    readonly maxBytes = MAX_BUFFER_BYTES,
    readonly maxEvents = MAX_BUFFER_EVENTS,
  ) {}

  /** JSON bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** When the newest segment began (its Meta), or -Infinity when nothing is held. */
  get newestStart(): number {
    return this.#segments.at(-1)?.start ?? -Infinity;
  }

  /** Holds one event; a Meta opens a segment (the snapshot follows it). */
  add(encoded: EncodedEvent, type: number, timestamp: number): void {
    if (type === META || this.#segments.length === 0) {
      this.#segments.push({ start: timestamp, events: [] });
    }
    this.#segments.at(-1)!.events.push(encoded);
    this.#bytes += encoded.bytes;
    this.#events++;
    while (this.#bytes > this.maxBytes || this.#events > this.maxEvents) {
      if (this.#segments.length === 1) this.#overflowed = true;
      this.#drop();
    }
  }

  /** Drops every segment older than the latest one that began PRE_TRIGGER_MS before `now`. */
  prune(now: number): void {
    while (this.#segments.length > 1 && this.#segments[1].start <= now - PRE_TRIGGER_MS) {
      this.#drop();
    }
  }

  /** True once after the newest segment had to go: a new snapshot must open the next one. */
  overflowed(): boolean {
    const was = this.#overflowed;
    this.#overflowed = false;
    return was;
  }

  /**
   * What a trigger at `at` records: the latest segment that began PRE_TRIGGER_MS before it (else
   * the first) and everything after; the buffer is emptied.
   */
  take(at: number): EncodedEvent[] {
    let from = 0;
    for (let i = 0; i < this.#segments.length; i++) {
      if (this.#segments[i].start <= at - PRE_TRIGGER_MS) from = i;
    }
    const events = this.#segments.slice(from).flatMap((s) => s.events);
    this.clear();
    return events;
  }

  /** Everything held, oldest first (a session decided to be recorded from its start). */
  takeAll(): EncodedEvent[] {
    const events = this.#segments.flatMap((s) => s.events);
    this.clear();
    return events;
  }

  clear(): void {
    this.#segments = [];
    this.#bytes = 0;
    this.#events = 0;
  }

  #drop(): void {
    const gone = this.#segments.shift();
    if (!gone) return;
    this.#events -= gone.events.length;
    for (const e of gone.events) this.#bytes -= e.bytes;
  }
}
