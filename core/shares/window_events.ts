// What a public link's player is sent (docs/decisions.md "Shares"): the session's batches cut to
// its window on the server. Nothing stamped after the window's end, nothing before the last full
// snapshot (with its Meta) at or before its start; no custom event (identify() puts the tracked
// user's traits there, and apps their own data), and the console only when the link shows it, and
// then only from the window's start. Each batch is decoded, cut and gzipped again.
import { EventType } from "@rrweb/types";
import { decodeBatch, type RecordedEvent } from "@/player/decode/decode.ts";
import type { EventBatchOut } from "@/core/sessions/schema.ts";

export interface EventWindow {
  /** Epoch ms. */
  start: number;
  /** Epoch ms, inclusive; Infinity without an end. */
  end: number;
  showConsole: boolean;
}

interface Decoded {
  batch: EventBatchOut;
  events: RecordedEvent[];
}

/** An event the link may send, whatever its place in the window. */
function allowed(event: RecordedEvent, window: EventWindow): boolean {
  if (event.timestamp > window.end) return false;
  if (event.type === EventType.Custom) return false;
  if (event.type !== EventType.Plugin) return true;
  const plugin = (event.data as { plugin?: unknown } | null)?.plugin;
  return window.showConsole && typeof plugin === "string" && plugin.startsWith("rrweb/console") &&
    event.timestamp >= window.start;
}

/**
 * Where the events sent begin in `head` (the batches that start at or before the window's start):
 * at the Meta leading the last full snapshot at or before the start, else at that snapshot; the
 * beginning when there is none (a window opening before the first snapshot).
 */
export function cutPoint(head: readonly RecordedEvent[][], start: number): [number, number] {
  let b = -1, i = -1;
  for (let batch = 0; batch < head.length; batch++) {
    head[batch].forEach((e, index) => {
      if (e.type === EventType.FullSnapshot && e.timestamp <= start) [b, i] = [batch, index];
    });
  }
  if (b < 0) return [0, 0];
  for (let j = i - 1; j >= 0; j--) {
    const type = head[b][j].type;
    if (type === EventType.Meta) return [b, j];
    if (type === EventType.FullSnapshot) break;
  }
  return [b, i];
}

async function gzipBase64(events: RecordedEvent[]): Promise<string> {
  const stream = new Blob([JSON.stringify(events)]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer()).toBase64();
}

async function encoded(batch: EventBatchOut, events: RecordedEvent[]): Promise<EventBatchOut> {
  const stamps = events.map((e) => e.timestamp);
  return {
    id: batch.id,
    firstTimestamp: Math.min(...stamps),
    lastTimestamp: Math.max(...stamps),
    eventCount: events.length,
    data: await gzipBase64(events),
  };
}

/** A batch that cannot be decoded is left out: its events cannot be cut to the window. */
async function decoded(batch: EventBatchOut): Promise<Decoded> {
  try {
    return { batch, events: await decodeBatch(batch.data) };
  } catch {
    return { batch, events: [] };
  }
}

/**
 * `batches` (in replay order, from the batch holding the last snapshot at or before the start) cut
 * to `window`. The batches that start at or before the start are held until the cut is known:
 * the SDK's snapshot pacing (sdk/snapshot_pacer.ts) bounds how many there are.
 */
export async function* windowBatches(
  batches: AsyncIterable<EventBatchOut>,
  window: EventWindow,
  /** Applied to each event sent (an export empties the recording's remote addresses). */
  map: (event: RecordedEvent) => RecordedEvent = (event) => event,
): AsyncGenerator<EventBatchOut> {
  const head: Decoded[] = [];
  let cut = false;
  async function* flushHead() {
    cut = true;
    const [b0, i0] = cutPoint(head.map((d) => d.events), window.start);
    for (let b = b0; b < head.length; b++) {
      const events = head[b].events.slice(b === b0 ? i0 : 0).filter((e) => allowed(e, window))
        .map(map);
      if (events.length) yield await encoded(head[b].batch, events);
    }
    head.length = 0;
  }
  for await (const batch of batches) {
    if (batch.firstTimestamp > window.end) break;
    const next = await decoded(batch);
    if (!cut && batch.firstTimestamp <= window.start) {
      head.push(next);
      continue;
    }
    if (!cut) yield* flushHead();
    const events = next.events.filter((e) => allowed(e, window)).map(map);
    if (events.length) yield await encoded(batch, events);
  }
  if (!cut) yield* flushHead();
}
