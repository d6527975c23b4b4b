// gzip of stored event batches through node:zlib's synchronous call (measured several times
// cheaper per request than the web CompressionStream, and Deno runs the asynchronous zlib on the
// main thread anyway). Request bodies are read and gunzipped by http/body.ts.
import { gzipSync } from "node:zlib";

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
