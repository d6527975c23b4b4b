// The first frame of a recording, for the server to render into the replay page: the first Meta
// event's size and the first full snapshot as an HTML document, cleaned by the player's own rules.
// Batches are inflated and parsed event by event and only until both are found, so a large first
// batch costs little more than its first snapshot.
import { EventType } from "@rrweb/types";
import type { RecordedEvent } from "@/player/decode/decode.ts";
import { batchEvents, type BatchSlices } from "./batch_events.ts";
import { RecordingSanitizer } from "@/player/decode/sanitize.ts";
import { snapshotHtml, type SnapshotNode } from "./snapshot_html.ts";

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
 * The server draws no first frame of a snapshot larger than `maxBytes` of JSON: a
 * 150,000-node page cost ~1 s of server time and a 9–18 MiB page on every view, and held every
 * other request meanwhile. The player draws such a frame itself. The bytes bound the nodes too
 * (a node takes ≥ 30 bytes). A benchmark lifts it to measure what it saves.
 */
export const FIRST_FRAME_LIMITS = { maxBytes: 1024 * 1024 };

export type { BatchSlices };

/**
 * The first frame of the stored batches (in replay order), or null when the first batches hold no
 * Meta and full snapshot, cannot be decoded, or start scrolled (a frame without scripts cannot
 * scroll).
 */
export async function firstFrame(batches: AsyncIterable<BatchSlices>): Promise<FirstFrame | null> {
  let meta: RecordedEvent | null = null;
  let seen = 0;
  for await (const batch of batches) {
    try {
      for await (const event of batchEvents(batch, FIRST_FRAME_LIMITS.maxBytes)) {
        if (event.type === EventType.Meta && !meta) meta = event;
        if (event.type === EventType.FullSnapshot && meta) return frameOf(meta, event);
      }
    } catch {
      return null; // a corrupt batch (the player reports it) or a snapshot too large to draw here
    }
    if (++seen >= FIRST_FRAME_BATCHES) break;
  }
  return null;
}

function frameOf(meta: RecordedEvent, snapshot: RecordedEvent): FirstFrame | null {
  const { width, height } = meta.data as { width: number; height: number };
  const data = snapshot.data as {
    node: SnapshotNode;
    initialOffset?: { left: number; top: number };
  };
  if (data.initialOffset?.left || data.initialOffset?.top) return null;
  if (!(width > 0 && height > 0)) return null;
  new RecordingSanitizer().clean(snapshot);
  return { width, height, html: snapshotHtml(data.node) };
}
