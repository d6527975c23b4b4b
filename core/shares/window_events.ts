// What a public link's player is sent, and an export holds (docs/decisions.md "Shares",
// "Exports"): the session's batches cut to a window on the server. Nothing stamped before the
// window's start: the page as it stood then (its changes stamped at the start included) is one Meta
// and full snapshot synthesized at the start by the server's DOM model
// (recording/model/window_start.ts); nothing stamped after its end;
// no custom event (identify() puts the tracked user's traits there, and apps their own data) and no
// network request unless the window asks for them (the JSON export, when its reader does); the
// console when the window shows it. A pure function of the batches and the window, so a link's cut
// is cached (link_cuts.ts); it runs in the cut worker (cut_job.ts), never on the main thread.
import { EventType } from "@rrweb/types";
import { decodeBatch, decodeBytes, type RecordedEvent } from "@/recording/decode.ts";
import { WindowStart } from "@/recording/model/window_start.ts";
import { IDENTITY_TAG } from "@/recording/events.ts";
import type { EventBatchOut } from "@/core/sessions/schema.ts";

export interface EventWindow {
  /** Epoch ms; -Infinity from the recording's beginning. */
  start: number;
  /** Epoch ms, inclusive; Infinity without an end. */
  end: number;
  showConsole: boolean;
  /** Network requests (`rrweb/network@1` plugin events). */
  network?: boolean;
  /** Custom events, but never identify()'s. */
  custom?: boolean;
}

/** identify()'s event holds the tracked user's traits: never sent, never exported. */
const isIdentity = (event: RecordedEvent) =>
  (event.data as { tag?: unknown } | null)?.tag === IDENTITY_TAG;

/** An event of the window the cut may send. */
function allowed(event: RecordedEvent, window: EventWindow): boolean {
  if (event.type === EventType.Custom) return window.custom === true && !isIdentity(event);
  if (event.type !== EventType.Plugin) return true;
  const plugin = (event.data as { plugin?: unknown } | null)?.plugin;
  if (typeof plugin !== "string") return false;
  if (plugin.startsWith("rrweb/console")) return window.showConsole;
  return plugin.startsWith("rrweb/network") && window.network === true;
}

/**
 * Whether an event goes into the page at the start rather than being sent: every event stamped
 * before it, and the page's own events stamped at it (so the start's batch shows the start whole:
 * the player draws a moment from the events posted with its first snapshot).
 */
function ofTheStart(event: RecordedEvent, start: number): boolean {
  return event.timestamp < start || (event.timestamp === start && PAGE_EVENTS.has(event.type));
}
const PAGE_EVENTS = new Set<number>([
  EventType.Meta,
  EventType.FullSnapshot,
  EventType.IncrementalSnapshot,
]);

/** The batch of the synthesized start: an id no stored batch has (they count from 1). */
const START_BATCH_ID = "0";

/** A batch's events as the cut leaves them: `id` is the stored batch's. */
export interface CutBatch {
  id: string;
  events: RecordedEvent[];
}

/**
 * A batch to cut: as the events endpoint sends it (base64), or as stored (gzip bytes; null when
 * its object is missing).
 */
export type CutSource =
  & Pick<EventBatchOut, "id" | "firstTimestamp">
  & ({ data: string } | { bytes: Uint8Array<ArrayBuffer> | null });

/** A batch that cannot be decoded is left out: its events cannot be cut to the window. */
async function decoded(batch: CutSource): Promise<RecordedEvent[]> {
  try {
    if ("data" in batch) return await decodeBatch(batch.data);
    return batch.bytes ? await decodeBytes(batch.bytes) : [];
  } catch {
    return [];
  }
}

/**
 * `batches` (in replay order, from the batch holding the last snapshot at or before the start) cut
 * to `window`, each event passed through `map` (a link's and an export's addresses). The events
 * stamped before the start build the page at the start and are not sent; its synthesized events
 * lead the first batch sent.
 */
export async function* windowEvents(
  batches: AsyncIterable<CutSource>,
  window: EventWindow,
  map: (event: RecordedEvent) => RecordedEvent = (event) => event,
): AsyncGenerator<CutBatch> {
  // Let go once the start is sent: a cut waiting for its reader holds no model of the page.
  let before: WindowStart | null = new WindowStart(window.start);
  let started = false;
  function* start() {
    started = true;
    const events = before!.events().map(map);
    before = null;
    if (events.length) yield { id: START_BATCH_ID, events };
  }
  for await (const batch of batches) {
    if (batch.firstTimestamp > window.end) break;
    const sent: RecordedEvent[] = [];
    for (const event of await decoded(batch)) {
      if (ofTheStart(event, window.start)) {
        // Once the start is sent, a late event from before it has nowhere to go.
        if (!started) before!.push(event);
      } else if (event.timestamp <= window.end && allowed(event, window)) sent.push(map(event));
    }
    if (!sent.length) continue;
    if (!started) yield* start();
    yield { id: batch.id, events: sent };
  }
  if (!started) yield* start();
}

async function gzipBase64(events: RecordedEvent[]): Promise<string> {
  const stream = new Blob([JSON.stringify(events)]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer()).toBase64();
}

/** The cut in the events endpoint's shape: each batch gzipped again. */
export async function* windowBatches(
  batches: AsyncIterable<CutSource>,
  window: EventWindow,
  map?: (event: RecordedEvent) => RecordedEvent,
): AsyncGenerator<EventBatchOut> {
  for await (const { id, events } of windowEvents(batches, window, map)) {
    let first = Infinity, last = -Infinity;
    for (const { timestamp } of events) {
      [first, last] = [Math.min(first, timestamp), Math.max(last, timestamp)];
    }
    const batch = {
      id,
      firstTimestamp: first,
      lastTimestamp: last,
      eventCount: events.length,
      data: await gzipBase64(events),
    };
    events.length = 0; // written: the cut holds no events while it waits for its reader
    yield batch;
  }
}
