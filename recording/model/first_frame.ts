// The first frame of a recording, for the server to render into the replay page: the first Meta
// event's size and the first full snapshot as an HTML document, cleaned by the player's own rules.
// Batches are inflated and parsed event by event and only until both are found, so a large first
// batch costs little more than its first snapshot. Drawn in the server's frame worker
// (core/sessions/frame_worker.ts).
import { EventType, NodeType } from "@rrweb/types";
import type { RecordedEvent } from "@/recording/decode.ts";
import { batchEvents, type BatchSlices, EventTooLarge } from "./batch_events.ts";
import { RecordingSanitizer } from "@/recording/sanitize.ts";
import { snapshotHtml, type SnapshotNode } from "./snapshot_html.ts";
import type { FrameAtResult } from "./frame_at.ts";
import { MOMENT_LIMITS, type MomentLimits } from "./moment_frame.ts";

export interface FirstFrame {
  /** The recorded viewport. */
  width: number;
  height: number;
  /** A whole HTML document, inert (no scripts, handlers or navigation). */
  html: string;
}

/** How many stored batches are looked into before giving up (the player then explains). */
export const FIRST_FRAME_BATCHES = 3;

/**
 * A moment's bounds, with room for more nodes: a first frame is written straight from the
 * snapshot, with no model of ~0.5 KB a node, and a long page (150,000 nodes, ~10 MiB of JSON)
 * still gets its frame. It is drawn off the main thread; the pool's time budget bounds it too.
 */
export const FIRST_FRAME_LIMITS: MomentLimits = { ...MOMENT_LIMITS, maxNodes: 200_000 };

export type { BatchSlices };

/**
 * The first frame of the stored batches (in replay order), or null when the first batches hold no
 * Meta and full snapshot, cannot be decoded, pass a bound, or start scrolled (a frame without
 * scripts cannot scroll).
 */
export async function firstFrame(
  batches: AsyncIterable<BatchSlices>,
  limits: MomentLimits = FIRST_FRAME_LIMITS,
): Promise<FirstFrame | null> {
  return (await drawFirstFrame(batches, limits)).frame;
}

/** As `firstFrame`, with why there is none. */
export async function drawFirstFrame(
  batches: AsyncIterable<BatchSlices>,
  limits: MomentLimits = FIRST_FRAME_LIMITS,
): Promise<FrameAtResult> {
  let meta: RecordedEvent | null = null;
  let seen = 0;
  let events = 0;
  let bytes = 0;
  const countText = (chars: number) => {
    bytes += chars;
    if (bytes > limits.maxBytes) throw new EventTooLarge();
  };
  const none = (failure: FrameAtResult["failure"]) => ({ frame: null, failure, events });
  for await (const batch of batches) {
    try {
      for await (const event of batchEvents(batch, limits.maxBytes, countText)) {
        events++;
        if (event.type === EventType.Meta && !meta) meta = event;
        if (event.type === EventType.FullSnapshot && meta) {
          return { ...frameOf(meta, event, limits, none), events };
        }
      }
    } catch (error) {
      // A corrupt batch (the player reports it) or a snapshot too large to draw here.
      return none(error instanceof EventTooLarge ? "too-many-bytes" : "corrupt");
    }
    if (++seen >= FIRST_FRAME_BATCHES) break;
  }
  return none(meta ? "no-snapshot" : "no-meta");
}

function frameOf(
  meta: RecordedEvent,
  snapshot: RecordedEvent,
  limits: MomentLimits,
  none: (failure: FrameAtResult["failure"]) => FrameAtResult,
): FrameAtResult {
  const { width, height } = meta.data as { width: number; height: number };
  const data = snapshot.data as {
    node: SnapshotNode;
    initialOffset?: { left: number; top: number };
  };
  if (data.initialOffset?.left || data.initialOffset?.top) return none("scrolled");
  if (!(width > 0 && height > 0)) return none("no-meta");
  if (nodesPast(data.node, limits.maxNodes)) return none("too-many-nodes");
  new RecordingSanitizer().clean(snapshot);
  const html = snapshotHtml(data.node);
  if (html.length > limits.maxHtmlChars) return none("too-large");
  return { frame: { width, height, html }, failure: null, events: 0 };
}

/** Whether the tree has more than `max` nodes (counting stops there). */
function nodesPast(root: SnapshotNode, max: number): boolean {
  const stack = [root];
  for (let count = 0; stack.length; count++) {
    if (count >= max) return true;
    const node = stack.pop()!;
    if (node.type === NodeType.Document || node.type === NodeType.Element) {
      for (const child of node.childNodes ?? []) stack.push(child);
    }
  }
  return false;
}
