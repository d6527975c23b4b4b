// The session's events as the player knows them so far: merged batch by batch into one stream
// sorted by timestamp (stable: on equal timestamps the earlier batch comes first), with what could
// not be decoded or understood kept for the page to explain.
import { EventType, IncrementalSource } from "@rrweb/types";
import type { RecordedEvent } from "@/recording/decode.ts";
import type { BatchSpan } from "@/player/decode/decode_worker.ts";

/** A viewport's size in CSS pixels: the recorded one (`sizeAt`), or the slot it is fitted into. */
export interface Size {
  width: number;
  height: number;
}

export interface Pointer {
  x: number;
  y: number;
  /** The node under the pointer (rrweb places the cursor relative to its document). */
  id: number;
}

interface PointerData {
  source?: number;
  positions?: { x: number; y: number; id: number }[];
  x?: number;
  y?: number;
  id?: number;
}

/** How many events back a pointer position is looked for (a seek never walks the whole stream). */
const POINTER_LOOKBACK = 20_000;

export class Recording {
  readonly events: RecordedEvent[] = [];
  readonly corrupt: BatchSpan[] = [];
  /** Events left out because this player does not know their kind. */
  skipped = 0;
  /** The newest batch seen, the cursor for following an open session. */
  lastBatchId: string | null = null;
  batches = 0;
  /** Real offsets of the full snapshots known so far, in order: where each page's frames begin. */
  readonly frames: number[] = [];

  constructor(readonly sessionStart: number) {}

  /** Merges a decoded batch; returns its events in stream order. */
  add(batch: BatchSpan, events: RecordedEvent[], skipped = 0): RecordedEvent[] {
    this.#seen(batch);
    this.skipped += skipped;
    const sorted = [...events].sort((a, b) => a.timestamp - b.timestamp);
    for (const e of sorted) {
      if (e.type === EventType.FullSnapshot) {
        insertSorted(this.frames, e.timestamp - this.sessionStart);
      }
    }
    const last = this.events.at(-1)?.timestamp ?? -Infinity;
    if (sorted.length > 0 && sorted[0].timestamp < last) this.#merge(sorted);
    else this.events.push(...sorted);
    return sorted;
  }

  /**
   * Merges events that go behind the last one (a late batch, or the batches before the moment a
   * replay opened at) in one pass, in place: the keyframe scout reads this same array.
   */
  #merge(sorted: RecordedEvent[]) {
    const old = this.events.slice();
    let i = 0, j = 0, k = 0;
    // On equal timestamps the events already known go first.
    while (i < old.length || j < sorted.length) {
      const takeOld = j >= sorted.length ||
        (i < old.length && old[i].timestamp <= sorted[j].timestamp);
      this.events[k++] = takeOld ? old[i++] : sorted[j++];
    }
  }

  addCorrupt(batch: BatchSpan) {
    this.#seen(batch);
    this.corrupt.push(batch);
  }

  #seen(batch: BatchSpan) {
    this.batches++;
    if (this.lastBatchId === null || Number(batch.id) > Number(this.lastBatchId)) {
      this.lastBatchId = batch.id;
    }
  }

  /** After every event with a timestamp ≤ `timestamp`. */
  #insertionPoint(timestamp: number): number {
    let low = 0, high = this.events.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.events[mid].timestamp <= timestamp) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** How many events are stamped after `after` and before `before` (epoch ms). */
  countBetween(after: number, before: number): number {
    return Math.max(this.#insertionPoint(before - 1) - this.#insertionPoint(after), 0);
  }

  /**
   * The last timestamp (epoch ms) whose events a seek to `timestamp` shows: `timestamp` itself, or,
   * between a Meta and its full snapshot, the snapshot's. rrweb records the two as one step (the
   * Meta, then the page serialised), and a seek into the gap would show neither page: rrweb drops
   * what came before the Meta and has no snapshot after it yet. A url marker sits in that gap.
   */
  shownUntil(timestamp: number): number {
    for (let i = this.#insertionPoint(timestamp) - 1; i >= 0; i--) {
      const type = this.events[i].type;
      if (type === EventType.FullSnapshot) return timestamp;
      if (type !== EventType.Meta) continue;
      for (let j = i + 1; j < this.events.length; j++) {
        if (this.events[j].type === EventType.FullSnapshot) {
          return Math.max(this.events[j].timestamp, timestamp);
        }
      }
      return timestamp;
    }
    return timestamp;
  }

  /**
   * Timestamp of the last Meta at or before `timestamp` (epoch ms): rrweb replays a seek there from
   * it, dropping what came before. -Infinity when there is none.
   */
  pageStart(timestamp: number): number {
    for (let i = this.#insertionPoint(timestamp) - 1; i >= 0; i--) {
      if (this.events[i].type === EventType.Meta) return this.events[i].timestamp;
    }
    return -Infinity;
  }

  /**
   * Where the recorded pointer was at `timestamp` (epoch ms): the last mouse or touch move position
   * or mouse interaction at or before it, with the node it was over; null when none is known.
   */
  /** The recorded viewport at `timestamp`: its last Meta's or viewport resize's size. */
  sizeAt(timestamp: number): Size | null {
    for (let i = this.#insertionPoint(timestamp) - 1; i >= 0; i--) {
      const { type, data } = this.events[i] as { type: number; data: Record<string, number> };
      const resize = type === EventType.IncrementalSnapshot &&
        data.source === IncrementalSource.ViewportResize;
      if (type === EventType.Meta || resize) {
        return Number.isFinite(data.width) && Number.isFinite(data.height)
          ? { width: data.width, height: data.height }
          : null;
      }
    }
    return null;
  }

  pointerAt(timestamp: number): Pointer | null {
    const stop = Math.max(this.#insertionPoint(timestamp) - POINTER_LOOKBACK, 0);
    for (let i = this.#insertionPoint(timestamp) - 1; i >= stop; i--) {
      const event = this.events[i];
      if (event.type !== EventType.IncrementalSnapshot) continue;
      const data = event.data as PointerData;
      if (
        data.source === IncrementalSource.MouseMove || data.source === IncrementalSource.TouchMove
      ) {
        const last = data.positions?.at(-1);
        if (last && Number.isFinite(last.x) && Number.isFinite(last.y)) {
          return { x: last.x, y: last.y, id: last.id };
        }
      } else if (
        data.source === IncrementalSource.MouseInteraction && Number.isFinite(data.x) &&
        Number.isFinite(data.y)
      ) {
        return { x: data.x!, y: data.y!, id: data.id! };
      }
    }
    return null;
  }

  /** Real offset of the last known event. */
  get loadedUntil(): number {
    return (this.events.at(-1)?.timestamp ?? this.sessionStart) - this.sessionStart;
  }

  get hasSnapshot(): boolean {
    return this.events.some((e) => e.type === EventType.FullSnapshot);
  }

  /** Enough to draw a first frame: a Meta and a full snapshot. */
  get showable(): boolean {
    return this.events.some((e) => e.type === EventType.Meta) && this.hasSnapshot;
  }
}

function insertSorted(list: number[], value: number) {
  let at = list.length;
  while (at > 0 && list[at - 1] > value) at--;
  list.splice(at, 0, value);
}
