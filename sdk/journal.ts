// Events not yet acknowledged, kept in IndexedDB (it outlives the tab and the browser): a tab
// closed or a browser killed before its last upload loses at most JOURNAL_EVERY_MS of recording,
// and the next page of the site running the same key sends the rest (docs/decisions.md "Capture
// timing"). A session that buffers for a trigger keeps its buffer here for its next page too.
import type { BatchRange } from "./encoded_event.ts";
import { type KeptSegment, keptSize } from "./trigger_buffer.ts";
import type { SessionMetadata } from "./types.ts";

/** How often a page writes its unacknowledged events (when they changed). */
export const JOURNAL_EVERY_MS = 2_000;
/** Most JSON one page keeps (the oldest batches go first), and most pages kept per site. */
export const JOURNAL_MAX_BYTES = 4 * 1024 * 1024;
export const JOURNAL_MAX_PAGES = 20;

const STORE = "pages";

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
  /** The trigger buffer, for the session's next page (sdk/trigger_buffer.ts); never sent as is. */
  buffer?: KeptSegment[];
}

/** Whether the entry was written for `project` (entries of SDKs before the key was kept: never). */
export function isOf(entry: JournalEntry, project: JournalProject): boolean {
  return entry.apiKey === project.apiKey && entry.endpoint === project.endpoint;
}

/** Both IndexedDB and Web Locks (secure origins): without locks no page is known to be gone. */
export const JOURNALING = typeof indexedDB !== "undefined" && "locks" in navigator;

let opened: Promise<IDBDatabase | null> | null = null;

function database(): Promise<IDBDatabase | null> {
  opened ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open("playhead", 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "page" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
    } catch {
      resolve(null); // no IndexedDB here (privacy modes, sandboxed frames): memory only
    }
  });
  return opened;
}

/** Runs `use` on the store; resolves with its request's result, or null when anything fails. */
async function withStore<T>(
  mode: IDBTransactionMode,
  use: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T | null> {
  const db = await database();
  if (!db) return null;
  return new Promise((resolve) => {
    try {
      const request = use(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
}

/**
 * Writes a page's entry within JOURNAL_MAX_BYTES: its newest batches, then its buffer's newest
 * segments in what is left (the oldest go first); nothing left: deleted.
 */
export function saveEntry(entry: JournalEntry): Promise<unknown> {
  let bytes = 0;
  const newest = <T>(items: T[], size: (item: T) => number) => {
    let keep = items.length;
    while (keep > 0 && bytes + size(items[keep - 1]) <= JOURNAL_MAX_BYTES) {
      bytes += size(items[--keep]);
    }
    return keep;
  };
  const keep = newest(entry.batches, (b) => b.length);
  const batches = entry.batches.slice(keep);
  const buffer = entry.buffer?.slice(newest(entry.buffer, keptSize));
  if (batches.length === 0 && !buffer?.length) return deleteEntry(entry.page);
  const ranges = entry.ranges?.slice(keep);
  return withStore("readwrite", (s) => s.put({ ...entry, batches, ranges, buffer }));
}

export function deleteEntry(page: string): Promise<unknown> {
  return withStore("readwrite", (s) => s.delete(page));
}

/** Every page's entry, oldest first. */
export async function allEntries(): Promise<JournalEntry[]> {
  const entries = (await withStore("readonly", (s) => s.getAll())) as JournalEntry[] | null;
  return (entries ?? []).sort((a, b) => a.savedAt - b.savedAt);
}

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
