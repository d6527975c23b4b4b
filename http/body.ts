// Reads a JSON request body within the caps of docs/decisions.md "Ingest": 10 MiB on the wire, gzip
// or identity encoding only, after gunzip at most what the SDK can produce with margin, and all of
// it within the body timeout (HTTP_BODY_TIMEOUT_MS), so a client that trickles is answered 408.
import { payloadTooLarge, unsupported } from "../core/errors.ts";
import { type BodyBudget, bodyBudget } from "./body_budget.ts";
import { createDecodeGate } from "./decode_gate.ts";
import { gunzipCapped, readCapped } from "../core/gzip.ts";

export const MAX_WIRE_BYTES = 10 * 1024 * 1024;
/** No body inflates beyond this (one oversized event alone is the SDK's largest request). */
export const MAX_DECODED_BYTES = 32 * 1024 * 1024;
/** Any body may inflate to this: twice the 2 MiB of JSON the SDK puts in one request. */
export const ALWAYS_DECODABLE_BYTES = 4 * 1024 * 1024;
/** Beyond that, the inflation ratio allowed: real rrweb batches compress 2–20× (corpus). */
export const MAX_GZIP_RATIO = 64;

/** Large decodes run one at a time; a long queue of them answers 503 (the SDK retries). */
export const largeDecodes = createDecodeGate({ concurrency: 1, maxQueued: 16 });

/** The most a gzip body of `wireBytes` may inflate to. */
export function decodedLimit(wireBytes: number): number {
  return Math.min(MAX_DECODED_BYTES, Math.max(ALWAYS_DECODABLE_BYTES, wireBytes * MAX_GZIP_RATIO));
}

export interface Wire {
  bytes: Uint8Array;
  gzip: boolean;
  /** Whether decoding may produce more than ALWAYS_DECODABLE_BYTES (see `largeDecodes`). */
  large: boolean;
}

/** A body as read, holding its share of the body budget until `release()` (after decoding). */
export interface HeldWire extends Wire {
  release(): void;
}

/**
 * The body's bytes as received, its encoding, and whether decoding it is large work. A body that
 * has not fully arrived within `timeoutMs` is request_timeout (408) and its stream is cancelled;
 * one the body budget cannot hold is 503 — before any byte is read when it declares its length.
 */
export async function readWire(
  req: Request,
  timeoutMs: number,
  budget: BodyBudget = bodyBudget,
): Promise<HeldWire> {
  const encoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "identity") {
    throw unsupported(`Content-Encoding ${encoding} is not supported; use gzip or identity`);
  }
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > MAX_WIRE_BYTES) throw payloadTooLarge(`body exceeds ${MAX_WIRE_BYTES} bytes`);
  let taken = 0;
  const takeUpTo = (size: number) => {
    if (size <= taken) return;
    budget.take(taken, size - taken);
    taken = size;
  };
  try {
    if (declared > 0) takeUpTo(declared);
    // A declared length is enforced by the HTTP server and a chunked body is capped as it arrives;
    // both are read through one reader, which the deadline can cancel (arrayBuffer() cannot be).
    const wire = req.body
      ? await readCapped(
        req.body,
        MAX_WIRE_BYTES,
        "body",
        AbortSignal.timeout(timeoutMs),
        takeUpTo,
      )
      : new Uint8Array();
    const gzip = encoding === "gzip";
    const large = (gzip ? decodedLimit(wire.byteLength) : wire.byteLength) >
      ALWAYS_DECODABLE_BYTES;
    let held = true;
    const release = () => {
      if (held) budget.give(taken);
      held = false;
    };
    return { bytes: wire, gzip, large, release };
  } catch (error) {
    budget.give(taken);
    throw error;
  }
}

/** The body's bytes after Content-Encoding (capped), from what `readWire` read. */
export function decodeWire(wire: Wire): Uint8Array {
  return wire.gzip ? gunzipCapped(wire.bytes, decodedLimit(wire.bytes.byteLength)) : wire.bytes;
}
