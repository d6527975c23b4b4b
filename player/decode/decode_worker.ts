// The decoding worker: fetches the events endpoint, splits the answer into batches as it streams
// in, and decodes, checks and sanitises each one off the main thread, posting it as soon as it is
// ready. The page starts it with `new Worker(DECODE_WORKER_URL, { type: "module" })`: this module is
// only ever imported dynamically, so esbuild gives it a content-hashed chunk of its own.
import { EventType } from "@rrweb/types";
import { BatchSplitter } from "@/recording/batch_split.ts";
import { decodeBatch, type RecordedEvent, type WireBatch } from "@/recording/decode.ts";
import { isReplayable } from "@/recording/event_check.ts";
import { RecordingSanitizer } from "@/recording/sanitize.ts";

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
  /** The request was stopped for a more urgent one (see `EventLoader.abort`). */
  | { kind: "stopped" }
  | { kind: "failed"; status: number; message: string };

/** What one decoder keeps across requests: the sanitiser's node tags and the batches decoded. */
export interface DecoderState {
  sanitizer: RecordingSanitizer;
  /** Batch ids already posted: a request that overlaps an earlier one skips them. */
  seen: Set<string>;
}

export function decoderState(): DecoderState {
  return { sanitizer: new RecordingSanitizer(), seen: new Set() };
}

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
 * their own, with the events stamped at its millisecond (the first frame needs no more: a public
 * link's page at its window's start is a snapshot and the inputs, scrolls and styles that follow
 * it, all stamped at the start), then slices of SLICE_EVENTS.
 */
export function slices<T extends { type: number; timestamp?: number }>(events: T[]): T[][] {
  const parts: T[][] = [];
  let from = events.findIndex((e) => e.type === EventType.FullSnapshot) + 1;
  const at = events[from - 1]?.timestamp ?? -Infinity;
  while (from > 0 && from < events.length && (events[from].timestamp ?? Infinity) <= at) from++;
  if (from > 0) parts.push(events.slice(0, from));
  for (; from < events.length; from += SLICE_EVENTS) {
    parts.push(events.slice(from, from + SLICE_EVENTS));
  }
  return parts.length > 0 ? parts : [events];
}

/** Decoded batches of one events answer, in order; a batch that fails to decode is reported. */
export async function* decodeAnswer(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  { sanitizer, seen }: DecoderState,
  signal?: AbortSignal,
): AsyncGenerator<DecodeMessage> {
  const splitter = new BatchSplitter();
  for await (const text of body.pipeThrough(new TextDecoderStream(), { signal })) {
    for (const json of splitter.push(text)) {
      const batch = JSON.parse(json) as WireBatch;
      const id = String(batch.id);
      if (seen.has(id)) continue;
      seen.add(id);
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

/**
 * Fetches `url` (unless the page did and handed over its successful answer's `body`) and yields what
 * the page needs to know, ending with `done`, `failed`, or `stopped` once `signal` aborts (only
 * between batches: a batch begun is posted whole).
 */
export async function* decodeEvents(
  url: string,
  state: DecoderState,
  signal?: AbortSignal,
  body?: ReadableStream<Uint8Array<ArrayBuffer>>,
): AsyncGenerator<DecodeMessage> {
  if (!body) {
    let response: Response;
    try {
      // Raw fetch, not utils/api_client.ts: the body is read as a stream, batch by batch, in a
      // worker, and never held whole as JSON.
      response = await fetch(url, { credentials: "same-origin", signal });
    } catch (error) {
      if (signal?.aborted) yield { kind: "stopped" };
      else yield { kind: "failed", status: 0, message: String(error) };
      return;
    }
    if (!response.ok || !response.body) {
      yield { kind: "failed", status: response.status, message: await response.text() };
      return;
    }
    body = response.body;
  }
  try {
    yield* decodeAnswer(body, state, signal);
  } catch (error) {
    if (!signal?.aborted) throw error;
    yield { kind: "stopped" };
  }
}

/**
 * What the page asks the worker: a request to decode (with the answer's body when the page fetched
 * it, transferred), or to stop the one running.
 */
export type DecodeRequest =
  | { url: string; body?: ReadableStream<Uint8Array<ArrayBuffer>> }
  | { abort: true };

// Inside a worker: one request at a time, each message posted as soon as it exists.
if ("WorkerGlobalScope" in globalThis) {
  const scope = globalThis as unknown as {
    onmessage: (message: MessageEvent<DecodeRequest>) => void;
    postMessage: (message: DecodeMessage) => void;
  };
  const state = decoderState();
  let running: AbortController | null = null;
  scope.onmessage = async (message) => {
    if ("abort" in message.data) return running?.abort();
    const controller = running = new AbortController();
    const { url, body } = message.data;
    for await (const out of decodeEvents(url, state, controller.signal, body)) {
      scope.postMessage(out);
    }
  };
}
