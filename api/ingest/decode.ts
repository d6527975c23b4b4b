// Decoding an ingest body, on the main thread (small bodies) or in a decode worker (large ones):
// the one set of steps both run, and the messages between the two.
import type { ErrorKind } from "@/core/errors.ts";
import type { PreparedIngest, SentEvents } from "@/core/ingest/prepare.ts";
import { type IngestBody, ingestBodySchema, MAX_EVENTS_PER_BATCH } from "@/core/ingest/schema.ts";
import { validation } from "@/core/errors.ts";
import { withoutRequests } from "@/core/ingest/network_off.ts";
import { parseWith } from "@/core/validate.ts";
import { parseJson } from "@/http/body.ts";
import { inOrderSent, sentParts } from "./sent_parts.ts";

/** An ingest body as read (inflated: http/body.ts), and what its key's project keeps of it. */
export interface IngestWire {
  bytes: Uint8Array;
  /** The project records no requests: its network events are left out (absent: kept). */
  dropNetwork?: boolean;
  /** A gzip body as it came (http/body.ts `readWire`'s `keepWire`). */
  gzip?: Uint8Array;
}

/** A body validated, and its events as sent when they are stored as sent (./sent_parts.ts). */
export interface DecodedIngest {
  body: IngestBody;
  sent: SentEvents | null;
}

export interface DecodeJob extends IngestWire {
  id: number;
}

/** What a worker says once, when its code has loaded and it takes jobs. */
export interface WorkerReady {
  ready: true;
}

export type DecodeReply =
  | { id: number; ok: true; prepared: PreparedIngest }
  | {
    id: number;
    ok: false;
    error: { kind: ErrorKind; message: string; details: Record<string, unknown> } | null;
    crash?: string;
  };

/**
 * Strict UTF-8, JSON and the ingest schema (NUL kept, made storable); the requests of a project
 * that records none emptied (core/ingest/network_off.ts). A body sent in parts (./sent_parts.ts)
 * is parsed part by part; one that is not, or that is not valid so, is read whole, which names
 * what is wrong.
 */
export function decodeIngestWire(wire: IngestWire): DecodedIngest {
  const parts = wire.gzip ? sentParts(wire.gzip, wire.bytes) : null;
  if (parts) {
    try {
      const sent = parts.json.events as unknown[];
      const body = validated(parts.json, wire);
      // Stored as sent only if validation kept every event as it came (./sent_parts.ts).
      const asSent = inOrderSent(sent, body.events);
      return {
        body,
        sent: asSent ? { gzip: parts.events.gzip, json: parts.events.inflated } : null,
      };
    } catch {
      // read whole below: its error names the field
    }
  }
  return { body: validated(parseJson(wire.bytes, false), wire), sent: null };
}

function validated(json: unknown, wire: IngestWire): IngestBody {
  // zod checks an array's length after each of its items: millions of `[]` would each be an issue.
  const events = (json as { events?: unknown } | null)?.events;
  if (Array.isArray(events) && events.length > MAX_EVENTS_PER_BATCH) {
    throw validation("invalid body", [{
      path: "events",
      message: `at most ${MAX_EVENTS_PER_BATCH} events per batch`,
    }]);
  }
  const body = parseWith(ingestBodySchema, json, "body", { keepNul: true }) as IngestBody;
  if (wire.dropNetwork) body.events = withoutRequests(body.events);
  return body;
}

/** The buffers a prepared batch can hand over without a copy (each its own ArrayBuffer). */
export function transferables(prepared: PreparedIngest): ArrayBuffer[] {
  const batch = prepared.batch;
  if (!batch) return [];
  batch.digest = own(batch.digest);
  batch.data = own(batch.data);
  return [batch.digest.buffer as ArrayBuffer, batch.data.buffer as ArrayBuffer];
}

/** `bytes` as the whole of its own buffer (Node's Buffers share pooled ones). */
export function own(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes
    : new Uint8Array(bytes);
}
