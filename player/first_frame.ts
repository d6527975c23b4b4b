// The first frame of a recording, for the server to render into the replay page: the first Meta
// event's size and the first full snapshot as an HTML document, cleaned by the player's own rules.
// Batches are inflated and parsed event by event and only until both are found, so a large first
// batch costs little more than its first snapshot.
import { BatchSplitter } from "./batch_stream.ts";
import type { RecordedEvent } from "./decode.ts";
import { isReplayable } from "./event_check.ts";
import { RecordingSanitizer } from "./sanitize.ts";
import { snapshotHtml, type SnapshotNode } from "./snapshot_html.ts";

export interface FirstFrame {
  /** The recorded viewport. */
  width: number;
  height: number;
  /** A whole HTML document, inert (no scripts, handlers or navigation). */
  html: string;
}

/** How many stored batches are looked into before giving up (the player then explains). */
export const FIRST_FRAME_BATCHES = 3;

/** A stored batch's gzip bytes, read in consecutive slices. */
export type BatchSlices = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * The first frame of the stored batches (in replay order), or null when the first batches hold no
 * Meta and full snapshot, cannot be decoded, or start scrolled (a frame without scripts cannot
 * scroll).
 */
export async function firstFrame(batches: AsyncIterable<BatchSlices>): Promise<FirstFrame | null> {
  let meta: RecordedEvent | null = null;
  let seen = 0;
  for await (const batch of batches) {
    try {
      for await (const event of events(batch)) {
        if (event.type === 4 && !meta) meta = event;
        if (event.type === 2 && meta) return frameOf(meta, event);
      }
    } catch {
      return null; // a corrupt batch: the player reports it
    }
    if (++seen >= FIRST_FRAME_BATCHES) break;
  }
  return null;
}

/**
 * Small pieces in and out: the inflater then works only a piece ahead of the parser, and the
 * splitter never scans far past the event that ends the search.
 */
const PIECE = 32 * 1024;

function* pieces<T extends { length: number; slice(from: number, to: number): T }>(whole: T) {
  for (let at = 0; at < whole.length; at += PIECE) yield whole.slice(at, at + PIECE);
}

async function* inPieces(slices: BatchSlices) {
  for await (const slice of slices) yield* pieces(slice as Uint8Array<ArrayBuffer>);
}

async function* events(batch: BatchSlices): AsyncGenerator<RecordedEvent> {
  const splitter = new BatchSplitter(2); // the items of the batch's event array
  const text = ReadableStream.from(inPieces(batch))
    .pipeThrough(new DecompressionStream("gzip"))
    .pipeThrough(new TextDecoderStream());
  for await (const chunk of text) {
    for (const piece of pieces(chunk)) {
      for (const json of splitter.push(piece)) {
        const event = JSON.parse(json) as RecordedEvent;
        if (typeof event?.type === "number" && isReplayable(event)) yield event;
      }
    }
  }
}

function frameOf(meta: RecordedEvent, snapshot: RecordedEvent): FirstFrame | null {
  const { width, height } = meta.data as { width: number; height: number };
  const data = snapshot.data as {
    node: SnapshotNode;
    initialOffset?: { left: number; top: number };
  };
  if (data.initialOffset?.left || data.initialOffset?.top) return null;
  if (!(width > 0 && height > 0)) return null;
  new RecordingSanitizer().clean(snapshot);
  return { width, height, html: snapshotHtml(data.node) };
}
