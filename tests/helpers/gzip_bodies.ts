// Gzip bodies of a chosen shape, for the inflation limits' tests and the attack benchmark: text
// that compresses about `ratio` to one, and a gzip member padded to an exact size on the wire.
import { gzipSync } from "node:zlib";

const PERIOD = 4096;
const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

/** Per 4 KiB, `random` pseudo-random letters and then a run of one letter. */
function periodicText(bytes: number, random: number, seed: number): Uint8Array {
  const out = new Uint8Array(bytes).fill(0x61);
  let x = seed;
  for (let i = 0; i < bytes; i += PERIOD) {
    for (let j = 0; j < random && i + j < bytes; j++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      out[i + j] = ALPHABET.charCodeAt((x >>> 0) % ALPHABET.length);
    }
  }
  return out;
}

/** `bytes` of text that gzip (level 6) compresses about `ratio` to one, or a little less. */
export function textOfRatio(bytes: number, ratio: number, seed = 1): string {
  const sample = Math.min(bytes, 256 * 1024);
  // The fewest random letters per period that bring the ratio down to `ratio` (12 steps).
  let low = 1;
  let high = PERIOD;
  while (low < high) {
    const mid = (low + high) >> 1;
    const text = periodicText(sample, mid, seed);
    if (text.byteLength / gzipSync(text).byteLength > ratio) low = mid + 1;
    else high = mid;
  }
  return new TextDecoder().decode(periodicText(bytes, low, seed));
}

/** `bytes` gzipped into exactly `wireBytes`: a comment in the gzip header takes what is left. */
export function gzipOfSize(bytes: Uint8Array, wireBytes: number): Uint8Array<ArrayBuffer> {
  const member = gzipSync(bytes, { level: 9 });
  const comment = wireBytes - member.byteLength - 1; // and its NUL
  if (comment < 0) throw new Error(`${member.byteLength} bytes of gzip exceed ${wireBytes}`);
  const out = new Uint8Array(wireBytes);
  out.set(member.subarray(0, 10));
  out[3] |= 0x10; // FCOMMENT: a NUL-terminated comment follows the fixed header
  out.fill(0x20, 10, 10 + comment);
  out[10 + comment] = 0;
  out.set(member.subarray(10), 11 + comment);
  return out;
}
