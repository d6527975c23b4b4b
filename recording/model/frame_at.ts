// Reads stored batches into the frame at a moment (moment_frame.ts) within its bounds: the batches
// from the one holding the last full snapshot at or before the moment, read event by event and only
// as far as the moment. Long work gives the event loop back every few milliseconds, so other
// requests are answered meanwhile.
import type { FirstFrame } from "./first_frame.ts";
import { batchEvents, type BatchSlices, EventTooLarge, wholeBatchEvents } from "./batch_events.ts";
import {
  MOMENT_LIMITS,
  MomentFrameBuilder,
  type MomentLimits,
  type NoFrame,
} from "./moment_frame.ts";

export interface StoredBatch {
  /** Epoch ms of its first event. */
  firstTimestamp: number;
  /** Epoch ms of its last event. */
  lastTimestamp: number;
  bytes: BatchSlices;
}

export interface FrameAtResult {
  frame: FirstFrame | null;
  /** Why there is no frame (null when there is one). */
  failure: NoFrame | "corrupt" | null;
  /** Events applied or looked at. */
  events: number;
}

/** Work between two returns to the event loop. */
const SLICE_MS = 10;

/** One event's JSON may not pass this (a snapshot of ~100,000 nodes is ~10 MiB). */
const MAX_EVENT_BYTES = 16 * 1024 * 1024;

/** The frame at `target` (epoch ms, inclusive) of `batches`, given in replay order. */
export async function frameAt(
  batches: AsyncIterable<StoredBatch>,
  target: number,
  limits: MomentLimits = MOMENT_LIMITS,
  now: () => number = () => performance.now(),
): Promise<FrameAtResult> {
  const builder = new MomentFrameBuilder(target, limits);
  const started = now();
  let slice = 0; // ms since `started` when the event loop last had its turn
  let bytes = 0;
  let events = 0;
  const countText = (chars: number) => {
    bytes += chars;
    if (bytes > limits.maxBytes) builder.fail("too-many-bytes");
  };
  try {
    for await (const batch of batches) {
      // Past the moment only a page's snapshot after its Meta is still wanted.
      if (batch.firstTimestamp > target && !builder.awaitingPage) break;
      // A batch wholly before the moment is parsed at once; the moment's own event by event, so
      // that reading stops at the moment.
      const read = batch.lastTimestamp <= target
        ? wholeBatchEvents(batch.bytes, countText)
        : batchEvents(batch.bytes, MAX_EVENT_BYTES, countText);
      for await (const event of read) {
        events++;
        if (builder.push(event)) break;
        const elapsed = now() - started;
        if (elapsed > limits.maxMs) builder.fail("too-slow");
        if (elapsed - slice > SLICE_MS) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          slice = elapsed;
        }
      }
      if (builder.done) break;
    }
  } catch (error) {
    if (error instanceof EventTooLarge) builder.fail("too-many-bytes");
    else return { frame: null, failure: "corrupt", events };
  }
  const frame = builder.frame();
  return { frame, failure: frame ? null : builder.failure, events };
}
