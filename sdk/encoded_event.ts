// An event JSON-encoded once, when it is buffered: request bodies are then assembled by string
// concatenation, so no flush ever stringifies megabytes of events in one task.

import type { RecordedEvent, SessionMetadata } from "./types.ts";

/** One buffered event: its JSON text and that text's size in UTF-8 bytes. */
export interface EncodedEvent {
  json: string;
  bytes: number;
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

/** An ingest request body (the `IngestBody` of types.ts) assembled from encoded events. */
export function ingestJson(
  sessionId: string,
  events: EncodedEvent[],
  metadata?: SessionMetadata,
): string {
  const tail = metadata ? `,"metadata":${JSON.stringify(metadata)}}` : "}";
  return `{"sessionId":${JSON.stringify(sessionId)},"events":${jsonArray(events)}${tail}`;
}
