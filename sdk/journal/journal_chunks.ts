// What a page's journal write adds and drops (sdk/journal/journal_store.ts): its numbered events are
// kept as chunks, runs of one page's sequence written once each, so a write every
// JOURNAL_EVERY_MS costs the events recorded since the last one, not all that is unacknowledged
// (a minute of a busy page is megabytes, rewritten every two seconds otherwise). The service
// stores each numbered event once, so chunks may be sent cut as they were written.
import { type EncodedEvent, follows, jsonArray } from "@/sdk/send/encoded_event.ts";
import { JOURNAL_MAX_BYTES } from "./journal.ts";

/** A chunk as the page remembers it: the journaling page's id, the run's page and numbers. */
export interface WrittenChunk {
  page: string;
  pageId: string;
  seq: number;
  count: number;
  /** Its JSON's length. */
  bytes: number;
  /** Its write's order among the page's chunks: chunks are read back oldest first. */
  order: number;
}

/** A chunk as stored: with its events' JSON array. */
export interface Chunk extends WrittenChunk {
  json: string;
}

export interface ChunkPlan {
  add: Chunk[];
  drop: WrittenChunk[];
  /** What stays written after the plan, oldest first. */
  kept: WrittenChunk[];
  /** Unnumbered batches (an SDK before numbering parked them): written whole, as JSON arrays. */
  unnumbered: string[];
  /** JSON left of JOURNAL_MAX_BYTES for the trigger buffer. */
  left: number;
}

/** Splits `batches` into runs of one page's sequence; unnumbered batches apart. */
function runsOf(batches: EncodedEvent[][]) {
  const runs: EncodedEvent[][] = [];
  const unnumbered: EncodedEvent[][] = [];
  for (const batch of batches) {
    let start = 0;
    for (let i = 1; i <= batch.length; i++) {
      if (i < batch.length && follows(batch[i - 1], batch[i])) continue;
      const run = batch.slice(start, i);
      (run[0].page === undefined ? unnumbered : runs).push(run);
      start = i;
    }
  }
  return { runs, unnumbered };
}

/**
 * The chunks to write and to delete so that the journal holds every unacknowledged event of
 * `batches` within JOURNAL_MAX_BYTES (the newest kept), given what `written` holds.
 */
export function planChunks(
  page: string,
  batches: EncodedEvent[][],
  written: readonly WrittenChunk[],
): ChunkPlan {
  const { runs, unnumbered } = runsOf(batches);
  const live = (c: WrittenChunk) =>
    runs.some((r) =>
      r[0].page === c.pageId && r[0].seq! < c.seq + c.count && r.at(-1)!.seq! >= c.seq
    );
  let kept = written.filter(live);
  const drop = written.filter((c) => !live(c));
  let order = Math.max(0, ...written.map((c) => c.order + 1));
  let add: Chunk[] = [];
  for (const run of runs) {
    // The run's events no kept chunk holds: the gaps between those chunks, in order.
    const first = run[0].seq!;
    let next = first;
    const chunks = kept.filter((c) => c.pageId === run[0].page).sort((a, b) => a.seq - b.seq);
    for (const gap of [...chunks, { seq: first + run.length, count: 0 }]) {
      const end = Math.min(gap.seq, first + run.length);
      if (end > next) add.push(chunkOf(page, run.slice(next - first, end - first), order++));
      next = Math.max(next, gap.seq + gap.count);
    }
  }
  // The bound, newest first within each kind (as sdk/journal/journal_store.ts bounds an entry):
  // this write's chunks, those written before, then unnumbered batches (a page before this one's).
  let left = JOURNAL_MAX_BYTES;
  const newest = <T>(items: T[], size: (item: T) => number): T[] => {
    const out: T[] = [];
    for (const item of items) {
      if (size(item) > left) break;
      left -= size(item);
      out.unshift(item);
    }
    return out;
  };
  add = newest(add.reverse(), (c) => c.bytes);
  const within = new Set(newest([...kept].sort((a, b) => b.order - a.order), (c) => c.bytes));
  drop.push(...kept.filter((c) => !within.has(c)));
  kept = kept.filter((c) => within.has(c));
  const wholes = newest(unnumbered.map(jsonArray).reverse(), (w) => w.length);
  return {
    add,
    drop,
    kept: [...kept, ...add.map(({ json: _, ...c }) => c)],
    unnumbered: wholes,
    left,
  };
}

function chunkOf(page: string, events: EncodedEvent[], order: number): Chunk {
  const json = jsonArray(events);
  const [{ page: pageId, seq }] = events;
  return {
    page,
    pageId: pageId!,
    seq: seq!,
    count: events.length,
    bytes: json.length,
    json,
    order,
  };
}
