// The members of a gzip body (RFC 1952 §2.2: a gzip file is a series of members, read as one
// stream). The SDK gzips an ingest body's parts one by one (sdk/send/transport.ts), so that the
// service can keep the events' member as it came. A member is found by inflating it alone: it is
// taken only when it is plain (no optional header fields, as CompressionStream and zlib write it),
// its deflate data ends where its trailer begins and the trailer's CRC-32 and size are those of
// what it inflated to; its bytes are then a gzip file of their own that every reader (zlib,
// DecompressionStream, which refuses anything after a member) inflates to exactly that.
import { Buffer } from "node:buffer";
import { crc32, inflateRawSync } from "node:zlib";

const HEADER_BYTES = 10;
const TRAILER_BYTES = 8;

export interface GzipMember {
  /** The member's bytes in the body: a whole gzip file. */
  gzip: Uint8Array;
  /** What they inflate to. */
  inflated: Uint8Array;
}

/**
 * The plain member that starts at `at` in `body`, inflating to at most `limit` bytes; null when
 * there is none (not a member, a header with optional fields, damaged, or larger).
 */
export function memberAt(body: Uint8Array, at: number, limit: number): GzipMember | null {
  const start = at + HEADER_BYTES;
  if (body.length < start + TRAILER_BYTES) return null;
  // ID1, ID2, CM = deflate, FLG = 0 (no text flag, extra field, name, comment or header CRC).
  if (body[at] !== 0x1f || body[at + 1] !== 0x8b || body[at + 2] !== 8 || body[at + 3] !== 0) {
    return null;
  }
  let inflated: Uint8Array;
  let used: number;
  try {
    // Raw inflation stops at the deflate data's last block: `bytesWritten` says where that was.
    const result = inflateRawSync(body.subarray(start), {
      info: true,
      maxOutputLength: Math.max(limit, 1),
    }) as unknown as { buffer: Uint8Array; engine: { bytesWritten: number } };
    inflated = result.buffer;
    used = result.engine.bytesWritten;
  } catch {
    return null; // damaged, cut short, or past the limit
  }
  const end = start + used + TRAILER_BYTES;
  if (inflated.length > limit || end > body.length) return null;
  const trailer = new DataView(body.buffer, body.byteOffset + end - TRAILER_BYTES, TRAILER_BYTES);
  if (
    trailer.getUint32(0, true) !== crc32(inflated) ||
    trailer.getUint32(4, true) !== inflated.length % 2 ** 32
  ) {
    return null;
  }
  return { gzip: body.subarray(at, end), inflated };
}

/** Whether two byte arrays hold the same bytes. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  return Buffer.from(a.buffer, a.byteOffset, a.length)
    .equals(Buffer.from(b.buffer, b.byteOffset, b.length));
}
