// Inflates a gzip request body as its bytes arrive, counting what comes out: the body is refused
// at the piece that takes it past its limit, or that its admission refuses, and nothing more is
// inflated or read. A small gzip body so costs what it is allowed to inflate to, never what it
// would inflate to.
import { createGunzip } from "node:zlib";
import { payloadTooLarge, validation } from "@/core/errors.ts";

/** Output is inflated, counted and admitted in pieces of this size. */
export const INFLATE_PIECE_BYTES = 64 * 1024;

export interface InflateOptions {
  /** Bytes on the wire past which the body is payload_too_large. */
  wireLimit: number;
  /** Inflated bytes past which the body is payload_too_large. */
  limit: number;
  /** Told the inflated size so far before each piece is kept; it may throw to stop. */
  admit?: (size: number) => void;
  /** Rejects when the body's time is up (see readWire). */
  expired?: Promise<never>;
  /** Keep the bytes as they came too (admitted with the inflated ones): ingest may store a part. */
  keepWire?: boolean;
}

/** The inflated body, its size on the wire and, when asked for, its bytes as they came. */
export async function readInflated(
  stream: ReadableStream<Uint8Array>,
  { wireLimit, limit, admit, expired, keepWire }: InflateOptions,
): Promise<{ bytes: Uint8Array; wireBytes: number; wire?: Uint8Array }> {
  const gunzip = createGunzip({ chunkSize: INFLATE_PIECE_BYTES });
  const pieces: Uint8Array[] = [];
  const chunks: Uint8Array[] = [];
  let size = 0;
  let wireBytes = 0;
  const failed = Promise.withResolvers<never>();
  failed.promise.catch(() => {}); // raced, not always awaited
  let stopped = false;
  const stop = (error: unknown) => {
    if (stopped) return;
    stopped = true;
    gunzip.destroy();
    failed.reject(error);
  };
  // Pieces come one at a time between turns of the event loop, so the count stops the inflation.
  gunzip.on("data", (piece: Uint8Array) => {
    if (stopped) return;
    size += piece.byteLength;
    try {
      if (size > limit) throw payloadTooLarge(`decompressed body exceeds ${limit} bytes`);
      admit?.(keepWire ? size + wireBytes : size);
      pieces.push(piece);
    } catch (error) {
      stop(error);
    }
  });
  gunzip.on("error", () => stop(validation("body is not valid gzip")));
  const ended = new Promise<void>((resolve) => gunzip.once("end", resolve));
  const race = <T>(promise: Promise<T>) =>
    Promise.race(expired ? [promise, failed.promise, expired] : [promise, failed.promise]);
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await race(reader.read());
      if (done) break;
      wireBytes += value.byteLength;
      if (wireBytes > wireLimit) throw payloadTooLarge(`body exceeds ${wireLimit} bytes`);
      if (keepWire) chunks.push(value);
      // Called once every piece of this chunk has been handed to "data".
      await race(new Promise<void>((resolve) => gunzip.write(value, () => resolve())));
    }
    gunzip.end();
    await race(ended);
  } finally {
    gunzip.destroy();
    reader.cancel().catch(() => {});
  }
  const bytes = joined(pieces, size);
  return keepWire ? { bytes, wireBytes, wire: joined(chunks, wireBytes) } : { bytes, wireBytes };
}

/** `chunks` as one array of `size` bytes. */
export function joined(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
