// gzip on the platform's streams, with a cap on what a decompression may produce (gzip bombs).
import { payloadTooLarge, validation } from "./errors.ts";

export async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
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

/** Decompresses gzip bytes, refusing output beyond `limit` and corrupt input. */
export async function gunzipCapped(bytes: Uint8Array, limit: number): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new DecompressionStream("gzip"),
  );
  try {
    return await readCapped(stream, limit, "decompressed body");
  } catch (error) {
    if (error instanceof TypeError) throw validation("body is not valid gzip");
    throw error;
  }
}
