// The one request body reader, for the API's JSON bodies, ingest's and the pages' forms: within
// the caps of docs/decisions.md "Ingest" (10 MiB on the wire, gzip or identity encoding only, after
// gunzip at most what the SDK can produce with margin) and all of it within the body timeout
// (HTTP_BODY_TIMEOUT_MS), so a client that trickles is answered 408; the database budget is paused
// meanwhile. A gzip body is inflated as it arrives (./inflate.ts) and bodies over 64 KiB are
// admitted by the process's body budget (./body_budget.ts) by the bytes they hold, inflated ones
// counted as they come, so a small body cannot hold or queue more than it is admitted for. JSON is
// strict UTF-8 of a sane shape (./json_shape.ts, checked before parsing).
import { gunzipSync } from "node:zlib";
import { payloadTooLarge, requestTimeout, unsupported, validation } from "@/core/errors.ts";
import { type BodyBudget, bodyBudget } from "./body_budget.ts";
import type { DatabaseBudget } from "./database_budget.ts";
import { createDecodeGate } from "./decode_gate.ts";
import { joined, readInflated } from "./inflate.ts";
import { jsonShapeProblem } from "./json_shape.ts";

export const MAX_WIRE_BYTES = 10 * 1024 * 1024;
/** No body inflates beyond this (one oversized event alone is the SDK's largest request). */
export const MAX_DECODED_BYTES = 32 * 1024 * 1024;
/** Any body may inflate to this, however well it compresses (a small page's repetitive batch). */
export const ALWAYS_DECODABLE_BYTES = 256 * 1024;
/**
 * Beyond that, the inflation ratio allowed: no run of the corpus' events over 256 KiB compresses
 * past 42.4× (gzip -9; SDK-shaped batches 41.3×, bench/ingest/gzip_ratios.ts).
 */
export const MAX_GZIP_RATIO = 48;
/** A body decoding to more than this is large work for this thread (see `largeDecodes`). */
export const LARGE_DECODE_BYTES = 4 * 1024 * 1024;

/** Large decodes run one at a time; a long queue of them answers 503 (the SDK retries). */
export const largeDecodes = createDecodeGate({ concurrency: 1, maxQueued: 16 });

/** The most a gzip body of `wireBytes` may inflate to. */
export function decodedLimit(wireBytes: number): number {
  return Math.min(MAX_DECODED_BYTES, Math.max(ALWAYS_DECODABLE_BYTES, wireBytes * MAX_GZIP_RATIO));
}

export interface Wire {
  /** The body after its Content-Encoding (inflated when gzip). */
  bytes: Uint8Array;
  /** Its size on the wire. */
  wireBytes: number;
  /** Whether decoding it is large work (more than LARGE_DECODE_BYTES, see `largeDecodes`). */
  large: boolean;
  /** A gzip body as it came, when `keepWire` asked for it. */
  gzip?: Uint8Array;
}

/** A body as read, holding its share of the body budget until `release()` (after decoding). */
export interface HeldWire extends Wire {
  release(): void;
}

/**
 * The body, inflated when it is gzip, and its size on the wire. A body that has not fully arrived
 * within `timeoutMs` is request_timeout (408) and its stream is cancelled; one the body budget
 * cannot hold is 503 — before any byte is read when it declares its length, else at the byte
 * (read or inflated) that would take it past; `owner` (ingest's public key) is held to its share.
 * The request's database budget, if it has one, stops while the body arrives. `keepWire` keeps a
 * gzip body as it came too, held within the budget beside the inflated one.
 */
export async function readWire(
  req: Request,
  timeoutMs: number,
  budget?: DatabaseBudget,
  bodies: BodyBudget = bodyBudget,
  owner?: string,
  keepWire = false,
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
    bodies.take(taken, size - taken, owner);
    taken = size;
  };
  try {
    if (declared > 0) takeUpTo(declared);
    // A declared length is enforced by the HTTP server and a chunked body is capped as it arrives;
    // both are read through one reader, which the deadline can cancel (arrayBuffer() cannot be).
    budget?.pause();
    const stream = req.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
    const deadline = AbortSignal.timeout(timeoutMs);
    const { bytes, wireBytes, wire } = encoding === "gzip"
      ? await inflateCapped(stream, declared, deadline, takeUpTo, keepWire)
      : await readCapped(stream, MAX_WIRE_BYTES, "body", deadline, takeUpTo)
        .then((bytes) => ({ bytes, wireBytes: bytes.byteLength, wire: undefined }));
    budget?.resume();
    let held = true;
    const release = () => {
      if (held) bodies.give(taken, owner);
      held = false;
    };
    const large = bytes.byteLength > LARGE_DECODE_BYTES;
    return { bytes, wireBytes, large, release, ...(wire ? { gzip: wire } : {}) };
  } catch (error) {
    bodies.give(taken, owner);
    throw error;
  }
}

/**
 * A gzip body inflated within its limit: a declared length gives it from the first byte; a
 * chunked body is held to the absolute cap as it arrives and to the ratio once it has.
 */
async function inflateCapped(
  stream: ReadableStream<Uint8Array>,
  declared: number,
  deadline: AbortSignal,
  admit: (size: number) => void,
  keepWire: boolean,
): Promise<{ bytes: Uint8Array; wireBytes: number; wire?: Uint8Array }> {
  const expired = abortedAsTimeout(deadline, "body");
  try {
    const limit = declared > 0 ? decodedLimit(declared) : MAX_DECODED_BYTES;
    const read = await readInflated(stream, {
      wireLimit: MAX_WIRE_BYTES,
      limit,
      admit,
      expired: expired.promise,
      keepWire,
    });
    const allowed = decodedLimit(read.wireBytes);
    if (read.bytes.byteLength > allowed) {
      throw payloadTooLarge(`decompressed body exceeds ${allowed} bytes`);
    }
    return read;
  } finally {
    expired.dispose();
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Strict UTF-8 JSON of a sane shape (./json_shape.ts, checked before parsing); an empty body
 * stands for `{}` when it is `optional`.
 */
export function parseJson(bytes: Uint8Array, optional: boolean): unknown {
  if (optional && bytes.byteLength === 0) return {};
  const problem = jsonShapeProblem(bytes);
  if (problem) throw validation(problem);
  return parseJsonText(bytes);
}

/** Strict UTF-8 JSON, parsed; its shape is the caller's to have checked (`jsonShapeProblem`). */
export function parseJsonText(bytes: Uint8Array, before = ""): unknown {
  try {
    return JSON.parse(before + decoder.decode(bytes));
  } catch {
    throw validation("body is not valid JSON");
  }
}

/**
 * Reads a stream fully; throws payload_too_large past `limit` bytes and request_timeout when
 * `deadline` aborts first, without reading further. Either way the stream is cancelled, so a
 * client that trickles or stalls holds nothing once it has its answer.
 */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  what: string,
  deadline?: AbortSignal,
  /** Told the size read so far before each chunk is kept; it may throw to stop reading. */
  admit?: (size: number) => void,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  const expired = deadline ? abortedAsTimeout(deadline, what) : null;
  try {
    for (;;) {
      const { done, value } = expired
        ? await Promise.race([reader.read(), expired.promise])
        : await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw payloadTooLarge(`${what} exceeds ${limit} bytes`);
      admit?.(size);
      chunks.push(value);
    }
  } finally {
    expired?.dispose();
    reader.cancel().catch(() => {});
  }
  return joined(chunks, size);
}

/** A promise that rejects with request_timeout when `signal` aborts (never resolves). */
function abortedAsTimeout(signal: AbortSignal, what: string) {
  const { promise, reject } = Promise.withResolvers<never>();
  promise.catch(() => {}); // raced, not always awaited
  const onAbort = () => reject(requestTimeout(`${what} did not arrive in time`));
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}

/** Decompresses gzip bytes, refusing output beyond `limit` (without inflating past it). */
export function gunzipCapped(bytes: Uint8Array, limit: number): Uint8Array {
  try {
    return gunzipSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if (error instanceof RangeError) {
      throw payloadTooLarge(`decompressed body exceeds ${limit} bytes`);
    }
    throw validation("body is not valid gzip");
  }
}
