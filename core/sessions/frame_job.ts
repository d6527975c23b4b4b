// One server frame as a job for the frame worker (frame_worker.ts): what to draw (the first frame
// or a moment's, with its bounds), the stored batches it reads, and the messages by which the
// worker pulls those batches' bytes from the main thread one slice at a time, so the main thread
// reads no more than the drawing needs and never parses or writes anything itself.
import { type BatchSlices } from "@/recording/model/batch_events.ts";
import { drawFirstFrame, type FirstFrame } from "@/recording/model/first_frame.ts";
import { frameAt, type FrameAtResult } from "@/recording/model/frame_at.ts";
import type { MomentLimits } from "@/recording/model/moment_frame.ts";
import { escapeAttribute } from "@/recording/model/snapshot_html.ts";
import { gzipSync } from "node:zlib";

export type FrameJob =
  | { kind: "first"; limits: MomentLimits }
  | { kind: "moment"; target: number; limits: MomentLimits };

/** A stored batch: its events' time span (a moment's frame needs it) and its gzip bytes. */
export interface FrameBatch {
  span: { first: number; last: number } | null;
  bytes: BatchSlices;
}

/**
 * A frame as the page serves it, prepared in the worker so the main thread does no per-view work
 * on its text: up to `INLINE_FRAME_CHARS` of HTML escaped as the page's `srcdoc` attribute value;
 * a larger one gzipped as its own document (`document`, srcdoc ""), which the page's frame loads
 * from its own address, so views of a page of several MiB each send a few KB and one buffer.
 */
export interface ServedFrame {
  width: number;
  height: number;
  srcdoc: string;
  document: Uint8Array | null;
}

/** A frame of more HTML than this is served as its own document. */
export const INLINE_FRAME_CHARS = 1024 * 1024;

/** The result of a job; `failure` "too-slow" and "busy" come from the pool that ran it. */
export interface FrameResult {
  frame: ServedFrame | null;
  failure: FrameAtResult["failure"] | "busy" | "crashed" | "closed";
  events: number;
}

export const FRAME_WORKER_URL = new URL("./frame_worker.ts", import.meta.url);

/** Worker to main thread. */
export type FrameWorkerMessage =
  | { ready: true }
  | { id: number; pull: "batch" | "slice" }
  | { id: number; result: FrameResult };

/** Main thread to worker: a job, or the answer to a pull (null: no more; failed: unreadable). */
export type FrameHostMessage =
  | { id: number; job: FrameJob }
  | { id: number; batch: { span: FrameBatch["span"] } | null; failed?: false }
  | { id: number; slice: Uint8Array | null; failed?: false }
  | { id: number; failed: true };

/** Draws one job's frame from its batches (in the worker; a benchmark may call it inline). */
export async function drawFrame(
  job: FrameJob,
  batches: AsyncIterable<FrameBatch>,
): Promise<FrameResult> {
  const drawn = job.kind === "first"
    ? await drawFirstFrame(slicesOf(batches), job.limits)
    : await frameAt(spansOf(batches), job.target, job.limits);
  return { ...drawn, frame: drawn.frame && served(drawn.frame) };
}

function served({ width, height, html }: FirstFrame): ServedFrame {
  if (html.length <= INLINE_FRAME_CHARS) {
    return { width, height, srcdoc: escapeAttribute(html), document: null };
  }
  const document = gzipSync(new TextEncoder().encode(html), { level: 6 });
  return { width, height, srcdoc: "", document };
}

async function* slicesOf(batches: AsyncIterable<FrameBatch>) {
  for await (const batch of batches) yield batch.bytes;
}

async function* spansOf(batches: AsyncIterable<FrameBatch>) {
  for await (const { span, bytes } of batches) {
    if (!span) throw new Error("a moment's batch without its time span");
    yield { firstTimestamp: span.first, lastTimestamp: span.last, bytes };
  }
}
