// An event JSON-encoded once, when it is buffered: request bodies are then assembled by string
// concatenation, so no flush ever stringifies megabytes of events in one task.

import type { RecordedEvent, SessionMetadata } from "@/sdk/types.ts";

/** One buffered event: its JSON text and that text's size in UTF-8 bytes. */
export interface EncodedEvent {
  json: string;
  bytes: number;
  /** The page that recorded it and its number in that page's sequence (sdk/send/flusher.ts). */
  page?: string;
  seq?: number;
}

/**
 * Where a batch's events sit in their page's sequence: the page, and the number of the first
 * (the others follow it one by one). The service stores each numbered event once, however the
 * copies of a page's events (keepalive bodies, the journal, retries) were cut into batches.
 */
export interface BatchRange {
  pageId: string;
  seq: number;
}

const NON_ASCII = /[\u0080-\uffff]/;

export function encodeEvent(event: RecordedEvent): EncodedEvent {
  const json = JSON.stringify(event);
  return { json, bytes: utf8Length(json) };
}

/** UTF-8 size of a string; rrweb JSON is mostly ASCII, so the exact count is usually skipped. */
export function utf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair (JSON.stringify escapes lone surrogates)
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The JSON array of `events`, by concatenation: the same text `JSON.stringify` would give. */
export function jsonArray(events: EncodedEvent[]): string {
  return "[" + events.map((e) => e.json).join(",") + "]";
}

/** Total UTF-8 size of the events' JSON, separators excluded. */
export function totalBytes(events: EncodedEvent[]): number {
  let bytes = 0;
  for (const e of events) bytes += e.bytes;
  return bytes;
}

/** Whether `next` directly follows `prev` in a page's sequence (or neither is numbered). */
export function follows(prev: EncodedEvent, next: EncodedEvent): boolean {
  if (prev.page === undefined || next.page === undefined) return prev.page === next.page;
  return next.page === prev.page && next.seq === prev.seq! + 1;
}

/** The range of a batch cut by `cutBatches` (sdk/send/buffer.ts), or null for unnumbered events. */
export function rangeOf(events: EncodedEvent[]): BatchRange | null {
  const first = events[0];
  return first?.page === undefined ? null : { pageId: first.page, seq: first.seq! };
}

/**
 * An ingest request body (the `IngestBody` of types.ts) in three parts: `{"events":`, the events'
 * array, the rest. The transport gzips each on its own, so that the service can store the events'
 * part as it came (docs/decisions.md "Ingest").
 */
export function bodyParts(
  sessionId: string,
  range: BatchRange | null,
  events: string,
  metadata?: SessionMetadata,
): string[] {
  const at = range ? `,"pageId":${JSON.stringify(range.pageId)},"seq":${range.seq}` : "";
  const tail = metadata ? `,"metadata":${JSON.stringify(metadata)}` : "";
  return ['{"events":', events, `,"sessionId":${JSON.stringify(sessionId)}${at}${tail}}`];
}

/** An ingest request body assembled from encoded events (`bodyParts`). */
export function ingestJson(
  sessionId: string,
  events: EncodedEvent[],
  metadata?: SessionMetadata,
): string[] {
  return bodyParts(sessionId, rangeOf(events), jsonArray(events), metadata);
}
