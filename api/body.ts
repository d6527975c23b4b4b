// Reads a JSON request body within the caps of DECISIONS "Ingest": 10 MiB on the wire, 64 MiB
// after gunzip, gzip or identity encoding only.
import type { z } from "zod";
import { payloadTooLarge, unsupported, validation } from "../core/errors.ts";
import { gunzipCapped, readCapped } from "../core/gzip.ts";
import { parseWith } from "./validate.ts";

export const MAX_WIRE_BYTES = 10 * 1024 * 1024;
export const MAX_DECODED_BYTES = 64 * 1024 * 1024;

const decoder = new TextDecoder("utf-8", { fatal: true });

/** The body's bytes after Content-Encoding, and how many bytes came over the wire. */
export async function readBody(req: Request): Promise<{ bytes: Uint8Array; wireBytes: number }> {
  const encoding = (req.headers.get("content-encoding") ?? "identity").trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "identity") {
    throw unsupported(`Content-Encoding ${encoding} is not supported; use gzip or identity`);
  }
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > MAX_WIRE_BYTES) throw payloadTooLarge(`body exceeds ${MAX_WIRE_BYTES} bytes`);
  // A declared length is enforced by the HTTP server, so such bodies are read in one piece.
  const wire = !req.body
    ? new Uint8Array()
    : Number.isFinite(declared)
    ? new Uint8Array(await req.arrayBuffer())
    : await readCapped(req.body, MAX_WIRE_BYTES, "body");
  const bytes = encoding === "gzip" ? gunzipCapped(wire, MAX_DECODED_BYTES) : wire;
  return { bytes, wireBytes: wire.byteLength };
}

/** Reads, decodes and validates a JSON body against a schema. */
export async function readJsonBody<T extends z.ZodType>(
  req: Request,
  schema: T,
): Promise<{ body: z.infer<T>; wireBytes: number }> {
  const { bytes, wireBytes } = await readBody(req);
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    throw validation("body is not valid JSON");
  }
  return { body: parseWith(schema, value, "body"), wireBytes };
}
