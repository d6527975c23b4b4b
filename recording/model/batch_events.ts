// A stored batch's events on the server, one at a time: its gzip bytes inflated and split into
// events as they arrive, each parsed on its own, so reading can stop at any event and an event
// past a size bound is refused before it is all inflated, let alone parsed.
import { BatchSplitter } from "@/recording/batch_split.ts";
import type { RecordedEvent } from "@/recording/decode.ts";
import { isReplayable } from "@/recording/event_check.ts";

/** A stored batch's gzip bytes, read in consecutive slices. */
export type BatchSlices = AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/** An event larger than the reader's bound (a snapshot, as a rule). */
export class EventTooLarge extends Error {}

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

/**
 * The events of a batch needed whole (the moment lies past its end), inflated and parsed at once:
 * native JSON.parse is several times faster than splitting event by event.
 */
export async function* wholeBatchEvents(
  batch: BatchSlices,
  onText?: (chars: number) => void,
): AsyncGenerator<RecordedEvent> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for await (const slice of batch) parts.push(slice as Uint8Array<ArrayBuffer>);
  const text = await new Response(
    new Blob(parts).stream().pipeThrough(new DecompressionStream("gzip")),
  ).text();
  onText?.(text.length);
  const events: unknown = JSON.parse(text);
  if (!Array.isArray(events)) throw new Error("the batch is not a list of events");
  for (const event of events as RecordedEvent[]) {
    if (
      typeof event?.type === "number" && Number.isFinite(event.timestamp) && isReplayable(event)
    ) {
      yield event;
    }
  }
}

/**
 * The batch's replayable events, in order; `onText` is told each piece of JSON read (to bound a
 * reader's total). Throws EventTooLarge past `maxEventBytes`, and on bad gzip or JSON.
 */
export async function* batchEvents(
  batch: BatchSlices,
  maxEventBytes: number,
  onText?: (chars: number) => void,
): AsyncGenerator<RecordedEvent> {
  const splitter = new BatchSplitter(2); // the items of the batch's event array
  const text = ReadableStream.from(inPieces(batch))
    .pipeThrough(new DecompressionStream("gzip"))
    .pipeThrough(new TextDecoderStream());
  // Text read since the last whole event (a piece's tail past it counted too).
  let pending = 0;
  for await (const chunk of text) {
    for (const piece of pieces(chunk)) {
      pending += piece.length;
      onText?.(piece.length);
      for (const json of splitter.push(piece)) {
        pending = 0;
        const event = JSON.parse(json) as RecordedEvent;
        if (typeof event?.type === "number" && isReplayable(event)) yield event;
      }
      if (pending > maxEventBytes) throw new EventTooLarge();
    }
  }
}
