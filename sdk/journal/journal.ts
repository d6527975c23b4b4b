// Events not yet acknowledged, kept in IndexedDB (it outlives the tab and the browser): a tab
// closed or a browser killed before its last upload loses at most JOURNAL_EVERY_MS of recording,
// and the next page of the site running the same key sends the rest (docs/decisions.md "Capture
// timing"). A session that buffers for a trigger keeps its buffer here for its next page too.
// What the entry needs at once is here (its bounds, its shape, the page's lock); the store
// (sdk/journal/journal_store.ts) and the recovery load on demand (sdk/lazy/journal.ts).
import type { BatchRange } from "@/sdk/send/encoded_event.ts";
import type { KeptSegment } from "./kept_segments.ts";
import type { SessionMetadata } from "@/sdk/types.ts";

/** How often a page writes its unacknowledged events (when they changed). */
export const JOURNAL_EVERY_MS = 2_000;
/** Most JSON one page keeps (the oldest batches go first), and most pages kept per site. */
export const JOURNAL_MAX_BYTES = 4 * 1024 * 1024;
export const JOURNAL_MAX_PAGES = 20;

/** The project a page records for: its entry is sent with that key to that endpoint only. */
export interface JournalProject {
  apiKey: string;
  endpoint: string;
}

/** One page's unacknowledged batches: each a JSON array of events, to be sent exactly as cut. */
export interface JournalEntry extends Partial<JournalProject> {
  page: string;
  sessionId: string;
  savedAt: number;
  metadata: SessionMetadata;
  batches: string[];
  /**
   * Each batch's range (null: unnumbered). Absent from entries of SDKs before it; one of those
   * that re-saved this entry may have dropped batches and not ranges: then they do not match.
   */
  ranges?: (BatchRange | null)[];
  /** The trigger buffer, for the session's next page (sdk/journal/kept_segments.ts); never sent as is. */
  buffer?: KeptSegment[];
}

/** Both IndexedDB and Web Locks (secure origins): without locks no page is known to be gone. */
export const JOURNALING = typeof indexedDB !== "undefined" && "locks" in navigator;

/**
 * Runs `use` while this page holds the lock named `name` (Web Locks: released when the page or
 * the browser ends). `wait: false` runs `use(false)` at once when another page holds it.
 */
export function withLock(
  name: string,
  wait: boolean,
  use: (held: boolean) => Promise<unknown>,
): Promise<unknown> {
  if (!JOURNALING) return use(false);
  return navigator.locks.request(
    `playhead:${name}`,
    { ifAvailable: !wait },
    (lock) => use(lock !== null),
  );
}
