// gzip through node:zlib's synchronous calls (measured several times cheaper per request than
// the web CompressionStream, and Deno runs the asynchronous zlib on the main thread anyway), with
// a cap on what a decompression may produce (gzip bombs).
import { gunzipSync, gzipSync } from "node:zlib";
import { payloadTooLarge, validation } from "./errors.ts";

/** gzip at zlib's default level 6, the same output size as CompressionStream("gzip"). */
export function gzip(bytes: Uint8Array): Uint8Array {
  return gzipSync(bytes);
}

/** Reads a stream fully; throws payload_too_large past `limit` bytes without reading further. */
export async function readCapped(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  what: string,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) throw payloadTooLarge(`${what} exceeds ${limit} bytes`);
      chunks.push(value);
    }
  } finally {
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
