// Compresses dynamic responses (JSON, HTML, and static files outside the build) for clients that
// accept brotli or gzip. Build output and the SDK are precompressed at build time instead.
import type { Context, MiddlewareHandler } from "hono";
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from "hono/utils/compress";
import { promisify } from "node:util";
import zlib from "node:zlib";
import { acceptedEncoding, type Encoding } from "@/fresh/encoding.ts";

export interface CompressOptions {
  /** Bodies smaller than this go out as they are (default 1 KiB: not worth a coding's header). */
  threshold?: number;
  /** Bodies still streaming past this go out as they are, so a stream is never held back longer. */
  bufferLimit?: number;
  /** Requests whose responses are never compressed. */
  skip?: (c: Context) => boolean;
}

// Levels picked with bench/service/compression.ts (RESULTS.md "Compressed responses"): on a list
// page of JSON brotli 4 costs what gzip 6 does and is 6 % smaller; brotli 5 and up cost 2–3× more
// for 3–8 % fewer bytes. Browsers get brotli; gzip 6 serves the rest.
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const BROTLI_QUALITY = 4;
const GZIP_LEVEL = 6;

type Bytes = Uint8Array<ArrayBuffer>;

export async function encode(encoding: Encoding, bytes: Uint8Array): Promise<Bytes> {
  if (encoding === "gzip") return await gzip(bytes, { level: GZIP_LEVEL }) as Bytes;
  return await brotli(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  }) as Bytes;
}

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

export function compress(options: CompressOptions = {}): MiddlewareHandler {
  const threshold = options.threshold ?? 1024;
  const bufferLimit = options.bufferLimit ?? 1024 * 1024;
  return async (c, next) => {
    await next();
    const res = c.res;
    if (
      !res.body || c.req.method === "HEAD" || [204, 206, 304].includes(res.status) ||
      res.headers.has("Content-Encoding") || options.skip?.(c) ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(res.headers.get("Content-Type") ?? "") ||
      NO_TRANSFORM.test(res.headers.get("Cache-Control") ?? "")
    ) return;
    const encoding = acceptedEncoding(c.req.header("Accept-Encoding"));
    if (!encoding) return varyOnEncoding(res.headers);
    const head = await readHead(res.body, bufferLimit);
    if (!head.done || head.bytes.length < threshold) {
      c.res = new Response(head.done ? head.bytes : head.stream, res);
      return;
    }
    const body = await encode(encoding, head.bytes);
    c.res = new Response(body, res);
    varyOnEncoding(c.res.headers);
    c.res.headers.set("Content-Length", String(body.length));
    c.res.headers.set("Content-Encoding", encoding);
    // The same entity in another coding: still equivalent for a weak comparison (RFC 9110 §8.8.1).
    const etag = c.res.headers.get("ETag");
    if (etag && !etag.startsWith("W/")) c.res.headers.set("ETag", `W/${etag}`);
  };
}

function varyOnEncoding(headers: Headers): void {
  const vary = headers.get("Vary");
  if (!vary) headers.set("Vary", "Accept-Encoding");
  else if (!/accept-encoding|\*/i.test(vary)) headers.set("Vary", `${vary}, Accept-Encoding`);
}

type Head = { done: true; bytes: Bytes } | { done: false; stream: ReadableStream<Uint8Array> };

/** The whole body when it ends within `limit` bytes, or else a stream replaying what was read. */
async function readHead(body: ReadableStream<Uint8Array>, limit: number): Promise<Head> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size <= limit) {
    const { done, value } = await reader.read();
    if (done) return { done: true, bytes: concat(chunks, size) };
    chunks.push(value);
    size += value.length;
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { done: false, stream };
}

function concat(chunks: Uint8Array[], size: number): Bytes {
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
