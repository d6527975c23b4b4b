// The memory of a session sampling left out, until a trigger records it: events in segments that
// each open with a Meta + full snapshot, kept so that a trigger at T finds the latest segment that
// began at least PRE_TRIGGER_MS before T (or the page's first, if the page is younger). Older
// segments are dropped as soon as a newer one qualifies, so with a snapshot at least every
// `bufferMs` (the caller's timer) the recording starts between 30 s and bufferMs + 30 s before T.
//
// Bounded: at most MAX_BUFFER_BYTES of event JSON and MAX_BUFFER_EVENTS events. Past either, the
// oldest whole segments go (a recording never starts without its snapshot); when the newest alone
// is past it, it goes too and the caller takes a fresh snapshot (`overflowed()` says so).
//
// The buffer spans the session's pages: a page leaving keeps its segments in the journal
// (`keep()`, each event numbered in its page's sequence), and the session's next page puts them
// before its own (`carry()`), so a trigger on any page finds the time before it. How they are
// written and read back (sdk/journal/kept_segments.ts) loads with the journal (sdk/lazy/journal.ts).

import type { EncodedEvent } from "@/sdk/send/encoded_event.ts";
import { PRE_TRIGGER_MS } from "@/core/projects/recording_limits.ts";
import { MAX_BUFFERED_EVENTS } from "@/sdk/options.ts";

export const MAX_BUFFER_BYTES = 8 * 1024 * 1024;
/** The flusher's ceiling too, so what a trigger releases always fits in it. */
export const MAX_BUFFER_EVENTS = MAX_BUFFERED_EVENTS;
const META = 4;

/** The page a segment was recorded on: a recording that opens with it starts there. */
export interface PageStart {
  url: string;
  referrer: string;
}

/** A segment leaving for the session's next page, or carried from an earlier one. */
export interface HeldSegment {
  start: number;
  page: PageStart;
  /** Numbered in their page's sequence. */
  events: EncodedEvent[];
}

interface Segment {
  start: number;
  events: EncodedEvent[];
  /** Opened by a Meta (else by what came before the page's first snapshot). */
  meta: boolean;
  /** An earlier page's, carried; undefined: this page's. */
  page?: PageStart;
}

export class TriggerBuffer {
  #segments: Segment[] = [];
  #bytes = 0;
  #events = 0;
  #overflowed = false;
  #revision = 0;

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

  /** Changes whenever what is held changes. */
  get revision(): number {
    return this.#revision;
  }

  /** Holds one event; a Meta opens a segment (the snapshot follows it). */
  add(encoded: EncodedEvent, type: number, timestamp: number): void {
    if (type === META || this.#segments.length === 0) {
      this.#segments.push({ start: timestamp, events: [], meta: type === META });
    }
    this.#segments.at(-1)!.events.push(encoded);
    this.#bytes += encoded.bytes;
    this.#events++;
    this.#revision++;
    this.#bound();
  }

  /**
   * Every segment held, for the session's next page: this page's are `page`'s, and their events
   * are numbered first (`number`, this page's sequence), so each copy of them has the same numbers.
   */
  keep(page: PageStart, number: (events: EncodedEvent[]) => void): HeldSegment[] {
    return this.#segments.map((s) => {
      number(s.events);
      return { start: s.start, page: s.page ?? page, events: [...s.events] };
    });
  }

  /**
   * Puts the segments the session's earlier pages kept (read back, oldest first, each once:
   * sdk/journal/kept_segments.ts `carried()`) before this page's own, those that began before `since` left
   * out. What this page held before its first snapshot (its url marker) joins the last of them.
   * The bound applies to the whole.
   */
  carry(kept: HeldSegment[], since: number): void {
    const earlier = kept.filter((s) => s.start >= since).map((s): Segment => ({
      ...s,
      meta: true,
    }));
    if (earlier.length === 0) return;
    const own = this.#segments;
    if (own.length > 0 && !own[0].meta) earlier.at(-1)!.events.push(...own.shift()!.events);
    this.#segments = [...earlier, ...own];
    const events = this.#segments.flatMap((s) => s.events);
    this.#events = events.length;
    this.#bytes = events.reduce((n, e) => n + e.bytes, 0);
    this.#revision++;
    this.#bound();
  }

  /** Drops the oldest segments while past the bound; the newest too, and says so. */
  #bound(): void {
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
    const events = this.#segments.slice(this.#from(at)).flatMap((s) => s.events);
    this.clear();
    return events;
  }

  /** The earlier page `take(at)` (no `at`: `takeAll()`) starts on; undefined: this page. */
  startPage(at?: number): PageStart | undefined {
    return this.#segments[at === undefined ? 0 : this.#from(at)]?.page;
  }

  #from(at: number): number {
    let from = 0;
    for (let i = 0; i < this.#segments.length; i++) {
      if (this.#segments[i].start <= at - PRE_TRIGGER_MS) from = i;
    }
    return from;
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
    this.#revision++;
  }

  #drop(): void {
    const gone = this.#segments.shift();
    if (!gone) return;
    this.#events -= gone.events.length;
    for (const e of gone.events) this.#bytes -= e.bytes;
    this.#revision++;
  }
}
