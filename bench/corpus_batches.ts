// Cuts the shared rrweb recordings into ingest requests the way the SDK sends them, gzipped once
// up front so the load generator only replays bytes.
import { join } from "node:path";
import { recent } from "@/tests/helpers/times.ts";

export const CORPUS_DIR = new URL("../../shared/corpus/", import.meta.url).pathname;

/** The SDK's defaults (sdk/options.ts, sdk/send/buffer.ts). */
export const SDK_FLUSH_INTERVAL_MS = 60_000;
export const SDK_FLUSH_AT_EVENTS = 2_000;
export const MAX_EVENTS_PER_REQUEST = 500;

export interface RrwebEvent {
  type: number;
  data: unknown;
  timestamp: number;
}

/** One request body of a session, without its sessionId (that is fresh per simulated session). */
export interface BatchTemplate {
  events: RrwebEvent[];
  withMetadata: boolean;
}

export interface CutOptions {
  flushIntervalMs: number;
  flushAtEvents: number;
}

/**
 * The SDK flushes on a timer (every flushInterval since the client started) and when its buffer
 * reaches batchSize; each flush leaves as requests of ≤ 500 events, the first of the page with
 * metadata. Recordings start at page load, so the first request carries DomContentLoaded, Load,
 * Meta and the FullSnapshot.
 */
export function cutSession(events: RrwebEvent[], options: CutOptions): BatchTemplate[] {
  const flushes: RrwebEvent[][] = [];
  const start = events[0]?.timestamp ?? 0;
  let current: RrwebEvent[] = [];
  let window = 0;
  for (const event of events) {
    const eventWindow = Math.floor((event.timestamp - start) / options.flushIntervalMs);
    if (eventWindow !== window && current.length > 0) {
      flushes.push(current);
      current = [];
    }
    window = eventWindow;
    current.push(event);
    if (current.length >= options.flushAtEvents) {
      flushes.push(current);
      current = [];
    }
  }
  if (current.length > 0) flushes.push(current); // pagehide sends the rest
  const batches: BatchTemplate[] = [];
  for (const flush of flushes) {
    for (let i = 0; i < flush.length; i += MAX_EVENTS_PER_REQUEST) {
      batches.push({
        events: flush.slice(i, i + MAX_EVENTS_PER_REQUEST),
        withMetadata: batches.length === 0,
      });
    }
  }
  return batches;
}

/** A recording of the corpus, moved to recent days: ingest keeps only times near its clock. */
export async function loadRecording(name: string): Promise<RrwebEvent[]> {
  const gz = await Deno.readFile(join(CORPUS_DIR, `${name}.json.gz`));
  const stream = new Blob([gz]).stream().pipeThrough(new DecompressionStream("gzip"));
  const events: RrwebEvent[] = JSON.parse(await new Response(stream).text());
  const shift = events.length ? recent(events[0].timestamp) - events[0].timestamp : 0;
  for (const event of events) event.timestamp += shift;
  return events;
}

export async function listRecordings(): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(CORPUS_DIR)) {
    if (entry.name.endsWith(".json.gz")) names.push(entry.name.slice(0, -".json.gz".length));
  }
  return names.sort();
}
