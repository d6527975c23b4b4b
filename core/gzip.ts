// gzip through node:zlib's synchronous calls (measured several times cheaper per request than
// the web CompressionStream, and Deno runs the asynchronous zlib on the main thread anyway), with
// a cap on what a decompression may produce (gzip bombs).
import { gunzipSync, gzipSync } from "node:zlib";
import { payloadTooLarge, requestTimeout, validation } from "./errors.ts";

/**
 * The level of stored event batches: 2, not zlib's default 6. Measured on the ingest benchmark's
 * workloads: a light request (25 KB of JSON) 0.077 instead of 0.142 ms for 3.8 instead of 3.1 KB,
 * a corpus request (4.7 MB) 26 instead of 44 ms for 1.29 instead of 1.21 MB. Level 1 halves the
 * CPU again but stores a third more.
 */
export const EVENTS_GZIP_LEVEL = 2;

/** gzip for stored event batches (any gzip reader decodes every level alike). */
export function gzip(bytes: Uint8Array): Uint8Array {
  return gzipSync(bytes, { level: EVENTS_GZIP_LEVEL });
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
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
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
