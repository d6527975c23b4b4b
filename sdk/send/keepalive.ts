// The unload-time flush: cut what is left into bodies (gzipped once the compressor has loaded) that
// fit the browser's ~64 KB keepalive budget, and park whatever does not fit for the next page.

import { type EncodedEvent, encodeEvent, jsonArray, rangeOf, totalBytes } from "./encoded_event.ts";
import type { KeyValueStorage } from "@/sdk/session_id.ts";
import { safeGet } from "@/sdk/session_id.ts";

/** Chromium allows 64 KiB of keepalive bodies in flight per page; keep a margin. */
export const KEEPALIVE_BUDGET_BYTES = 60 * 1024;
/** gzip rarely beats this ratio on rrweb JSON; a bigger batch is split without trying. */
const MAX_PLAUSIBLE_RATIO = 40;

/** A run of events to send; an atomic one (an in-flight batch) is resent exactly as it was. */
export interface PendingBatch {
  events: EncodedEvent[];
  atomic?: boolean;
}

export interface KeepalivePlan {
  /** Request bodies (as `pack` made them), in order, whose sizes add up to at most the budget. */
  bodies: Uint8Array[];
  /** Batches that did not fit, in order. */
  rest: PendingBatch[];
  /** The events of each body, in the same order. */
  sent: EncodedEvent[][];
}

/**
 * Greedily fits batches into `budget` bytes of gzipped bodies, halving a batch that is too big
 * (unless atomic) and stopping at the first one that cannot fit, so the rest keeps its order.
 * `serialize(events, index)` builds the JSON body; `index` is the body's place among the bodies. The
 * events' known sizes rule out a hopeless batch before anything is serialized or packed (`pack`
 * gzips, or passes the bytes through where no compressor is loaded).
 */
export function planKeepalive(
  batches: PendingBatch[],
  serialize: (events: EncodedEvent[], index: number) => Uint8Array,
  pack: (bytes: Uint8Array) => Uint8Array,
  budget: number,
): KeepalivePlan {
  const queue = batches.filter((b) => b.events.length > 0);
  const bodies: Uint8Array[] = [];
  const sent: EncodedEvent[][] = [];
  let remaining = budget;
  while (queue.length > 0) {
    const batch = queue[0];
    const hopeless = totalBytes(batch.events) > remaining * MAX_PLAUSIBLE_RATIO;
    const body = hopeless ? null : pack(serialize(batch.events, bodies.length));
    if (body && body.length <= remaining) {
      bodies.push(body);
      sent.push(batch.events);
      remaining -= body.length;
      queue.shift();
    } else if (!batch.atomic && batch.events.length > 1) {
      const mid = Math.ceil(batch.events.length / 2);
      queue.splice(0, 1, { events: batch.events.slice(0, mid) }, {
        events: batch.events.slice(mid),
      });
    } else {
      break;
    }
  }
  return { bodies, rest: queue, sent };
}

/** `owner`: the session, and the key and endpoint its batches may go with (sdk/journal/page_journal.ts). */
const pendingKey = (owner: string) => `playhead:pending:${owner}`;

/**
 * Stores batches for the next page of the same session and project (`owner`), as
 * `[{"pageId":…,"seq":…,"events":[…]},…]` assembled from the encoded events (the range only for
 * numbered ones). When sessionStorage is full the oldest batches go first, like the in-memory
 * ceiling.
 */
export function savePending(
  storage: KeyValueStorage | null,
  owner: string,
  batches: PendingBatch[],
): void {
  if (!storage) return;
  let kept = batches.filter((b) => b.events.length > 0);
  while (kept.length > 0) {
    try {
      const text = kept.map((b) => {
        const range = rangeOf(b.events);
        const at = range ? `"pageId":${JSON.stringify(range.pageId)},"seq":${range.seq},` : "";
        return `{${at}"events":${jsonArray(b.events)}}`;
      }).join(",");
      storage.setItem(pendingKey(owner), `[${text}]`);
      return;
    } catch {
      kept = kept.slice(1);
    }
  }
  clearPending(storage, owner);
}

/**
 * Reads and removes the batches a previous page of this session and project left behind,
 * re-encoded with the numbers they had (a batch's events follow its first one by one).
 */
export function takePending(storage: KeyValueStorage | null, owner: string): PendingBatch[] {
  const raw = safeGet(storage, pendingKey(owner));
  if (!raw) return [];
  clearPending(storage, owner);
  try {
    const parsed = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((b) => Array.isArray(b?.events)).map((b) => {
      const events: EncodedEvent[] = b.events.map(encodeEvent);
      if (typeof b.pageId === "string" && Number.isSafeInteger(b.seq)) {
        events.forEach((e, i) => Object.assign(e, { page: b.pageId, seq: b.seq + i }));
      }
      return { events };
    });
  } catch {
    return [];
  }
}

export function clearPending(storage: KeyValueStorage | null, owner: string): void {
  try {
    storage?.removeItem(pendingKey(owner));
  } catch {
    // Nothing to do: storage is unusable.
  }
}
