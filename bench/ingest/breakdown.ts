// Where an ingest request's server time goes: each step of the ingest path (http/body.ts,
// core/ingest/ingest.ts) timed in this process on the workload's real bodies, one step at a time,
// then the server's decode and preparation as a whole, of the body read whole and in parts.
import { createHash } from "node:crypto";
import { ingestBodySchema } from "@/core/ingest/schema.ts";
import { MAX_DECODED_BYTES } from "@/http/body.ts";
import { gzip } from "@/core/gzip.ts";
import { gunzipCapped } from "@/http/body.ts";
import { extractMarkers } from "@/core/ingest/markers.ts";
import type { PreparedSession } from "@/bench/workload.ts";
import { decodeIngestWire } from "@/api/ingest/decode.ts";
import { prepareIngest } from "@/core/ingest/prepare.ts";

export const STEPS = [
  "gunzip body",
  "decode + JSON.parse",
  "zod validate",
  "JSON.stringify events",
  "SHA-256 digest",
  "gzip events",
  "extract markers",
] as const;

/** The server's own decode and preparation of each body, whole (as before) and in parts. */
export const PATHS = ["decode + prepare, read whole", "decode + prepare, in parts"] as const;

export type Breakdown = Record<(typeof STEPS)[number] | (typeof PATHS)[number], number>;

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

/** Mean milliseconds per request of each step over the sessions' requests, `rounds` times. */
export async function measureBreakdown(
  sessions: PreparedSession[],
  rounds: number,
): Promise<Breakdown> {
  const totals = Object.fromEntries([...STEPS, ...PATHS].map((s) => [s, 0])) as Breakdown;
  const time = async <T>(step: keyof Breakdown, fn: () => T | Promise<T>): Promise<T> => {
    const start = performance.now();
    const value = await fn();
    totals[step] += performance.now() - start;
    return value;
  };
  for (let round = 0; round < rounds; round++) {
    for (const body of sessions.flatMap((s) => s.bodies)) {
      const bytes = await time("gunzip body", () => gunzipCapped(body, MAX_DECODED_BYTES));
      const value = await time("decode + JSON.parse", () => JSON.parse(decoder.decode(bytes)));
      const parsed = await time("zod validate", () => ingestBodySchema.parse(value));
      const json = await time(
        "JSON.stringify events",
        () => encoder.encode(JSON.stringify(parsed.events)),
      );
      // as core/ingest/ingest.ts hashes: node:crypto, synchronous
      await time("SHA-256 digest", () => createHash("sha256").update(json).digest());
      await time("gzip events", () => gzip(json));
      await time("extract markers", () => JSON.stringify(extractMarkers(parsed.events)));
      // api/ingest/ingest_body.ts's steps after the body is read: its JSON whole, or in parts
      // with the events' member stored as it came (./sent_parts.ts).
      await time(PATHS[0], () => {
        const { body } = decodeIngestWire({ bytes });
        return prepareIngest(body);
      });
      await time(PATHS[1], () => {
        const { body: decoded, sent } = decodeIngestWire({ bytes, gzip: body });
        return prepareIngest(decoded, sent);
      });
    }
  }
  const requests = rounds * sessions.reduce((n, s) => n + s.bodies.length, 0);
  for (const step of [...STEPS, ...PATHS]) totals[step] /= Math.max(1, requests);
  return totals;
}
