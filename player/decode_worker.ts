// The decoding worker: fetches the events endpoint, splits the answer into batches as it streams
// in, and decodes, checks and sanitises each one off the main thread, posting it as soon as it is
// ready. The page starts it with `new Worker(DECODE_WORKER_URL, { type: "module" })`: this module is
// only ever imported dynamically, so esbuild gives it a content-hashed chunk of its own.
import { BatchSplitter } from "./batch_stream.ts";
import { decodeBatch, type RecordedEvent, type WireBatch } from "./decode.ts";
import { isReplayable } from "./event_check.ts";
import { RecordingSanitizer } from "./sanitize.ts";

export const DECODE_WORKER_URL = import.meta.url;

export interface BatchSpan {
  id: string;
  firstTimestamp: number;
  lastTimestamp: number;
}

export type DecodeMessage =
  | { kind: "batch"; batch: BatchSpan; events: RecordedEvent[]; skipped: number }
  | { kind: "corrupt"; batch: BatchSpan }
  | { kind: "done" }
  | { kind: "failed"; status: number; message: string };

function spanOf(batch: WireBatch): BatchSpan {
  return {
    id: String(batch.id),
    firstTimestamp: batch.firstTimestamp,
    lastTimestamp: batch.lastTimestamp,
  };
}

/** Events handed over per message after the first snapshot, so no one message is long to take in. */
export const SLICE_EVENTS = 100;

/**
 * A batch's events in the order they are posted: up to and including its first full snapshot on
 * their own (the first frame needs no more), then slices of SLICE_EVENTS.
 */
export function slices<T extends { type: number }>(events: T[]): T[][] {
  const parts: T[][] = [];
  let from = events.findIndex((e) => e.type === 2) + 1;
  if (from > 0) parts.push(events.slice(0, from));
  for (; from < events.length; from += SLICE_EVENTS) {
    parts.push(events.slice(from, from + SLICE_EVENTS));
  }
  return parts.length > 0 ? parts : [events];
}

/** Decoded batches of one events answer, in order; a batch that fails to decode is reported. */
export async function* decodeAnswer(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  sanitizer: RecordingSanitizer,
): AsyncGenerator<DecodeMessage> {
  const splitter = new BatchSplitter();
  for await (const text of body.pipeThrough(new TextDecoderStream())) {
    for (const json of splitter.push(text)) {
      const batch = JSON.parse(json) as WireBatch;
      try {
        const decoded = await decodeBatch(batch.data);
        const events = decoded.filter(isReplayable);
        const span = spanOf(batch);
        let skipped = decoded.length - events.length;
        for (const part of slices(events)) {
          // Cleaned slice by slice, so the first frame's events leave before the rest is walked.
          for (const event of part) sanitizer.clean(event);
          yield { kind: "batch", batch: span, events: part, skipped };
          skipped = 0;
        }
      } catch {
        yield { kind: "corrupt", batch: spanOf(batch) };
      }
    }
  }
  yield { kind: "done" };
}

/** Fetches `url` and yields what the page needs to know, ending with `done` or `failed`. */
export async function* decodeEvents(
  url: string,
  sanitizer: RecordingSanitizer,
): AsyncGenerator<DecodeMessage> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: "same-origin" });
  } catch (error) {
    yield { kind: "failed", status: 0, message: String(error) };
    return;
  }
  if (!response.ok || !response.body) {
    yield { kind: "failed", status: response.status, message: await response.text() };
    return;
  }
  yield* decodeAnswer(response.body, sanitizer);
}

// Inside a worker: one request at a time, each message posted as soon as it exists.
if ("WorkerGlobalScope" in globalThis) {
  const scope = globalThis as unknown as {
    onmessage: (message: MessageEvent<{ url: string }>) => void;
    postMessage: (message: DecodeMessage) => void;
  };
  const sanitizer = new RecordingSanitizer();
  scope.onmessage = async (message) => {
    for await (const out of decodeEvents(message.data.url, sanitizer)) scope.postMessage(out);
  };
}
