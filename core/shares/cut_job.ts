// A cut as a job for the cut worker (cut_worker.ts): which cut (a public link's window, the HTML
// export's two readings, the JSON export's), the stored batches it reads, and the messages by which
// the worker pulls each batch's gzip bytes from the main thread and hands back each cut batch when
// the main thread asks for it. Decoding, cutting and writing a batch again happen in the worker only.
import type { EventBatchOut } from "@/core/sessions/schema.ts";
import {
  ALL_EVENTS,
  type ImageSightings,
  imageSightings,
  inlinedReading,
} from "@/core/exports/image_places.ts";
import { sharedEvent, withPageAddresses } from "./addresses.ts";
import { type CutSource, type EventWindow, windowBatches, windowEvents } from "./window_events.ts";

export type CutJob =
  /** A link's window: its batches gzipped again, in the events endpoint's shape. */
  | { kind: "link"; window: EventWindow }
  /** The HTML export's first reading: the images its events name (one piece, at the end). */
  | { kind: "images"; listed: number }
  /**
   * The HTML export's batches: custom events and requests out, every remote address emptied but the
   * images of `inlined` (data URLs by address), written in their places.
   */
  | { kind: "html"; inlined: Record<string, string> }
  /** The JSON export's events, as JSON text (a batch's events joined by commas). */
  | { kind: "json"; network: boolean; custom: boolean };

/** What a job hands back: a batch (link, html), JSON text (json) or the images seen (images). */
export type CutPiece = EventBatchOut | string | ImageSightings;

/** A stored batch as the worker reads it: its id, its first event's time and its gzip bytes. */
export interface CutInput {
  id: string;
  firstTimestamp: number;
  bytes: Uint8Array<ArrayBuffer> | null;
}

export const CUT_WORKER_URL = new URL("./cut_worker.ts", import.meta.url);

/** Worker to main thread. */
export type CutWorkerMessage =
  | { ready: true }
  | { id: number; pull: true }
  | { id: number; piece: CutPiece }
  | { id: number; done: true }
  | { id: number; failed: string };

/** Main thread to worker: a job, a request for its next piece, the answer to a pull, its end. */
export type CutHostMessage =
  | { id: number; job: CutJob }
  | { id: number; next: true }
  | { id: number; input: CutInput | null }
  | { id: number; unreadable: true }
  | { id: number; cancel: true };

/** One job's pieces from its batches (in the worker; a test or benchmark may call it inline). */
export async function* cutPieces(
  job: CutJob,
  inputs: AsyncIterable<CutSource>,
): AsyncGenerator<CutPiece> {
  if (job.kind === "link") return yield* windowBatches(inputs, job.window, sharedEvent);
  if (job.kind === "images") return yield await imageSightings(inputs, job.listed);
  if (job.kind === "html") {
    return yield* windowBatches(inputs, ALL_EVENTS, inlinedReading(job.inlined));
  }
  // Every event but identify()'s, requests and custom events when asked for.
  const window = { ...ALL_EVENTS, network: job.network, custom: job.custom };
  for await (const { events } of windowEvents(inputs, window, withPageAddresses)) {
    const text = events.map((event) => JSON.stringify(event)).join(",");
    events.length = 0; // written: nothing held while the piece waits for its reader
    yield text;
  }
}
