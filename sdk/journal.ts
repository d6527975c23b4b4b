// Events not yet acknowledged, kept in IndexedDB (it outlives the tab and the browser): a tab
// closed or a browser killed before its last upload loses at most JOURNAL_EVERY_MS of recording,
// and the next page of the site sends the rest (docs/decisions.md "Capture timing").
import type { BatchRange } from "./encoded_event.ts";
import type { SessionMetadata } from "./types.ts";

/** How often a page writes its unacknowledged events (when they changed). */
export const JOURNAL_EVERY_MS = 2_000;
/** Most JSON one page keeps (the oldest batches go first), and most pages kept per site. */
export const JOURNAL_MAX_BYTES = 4 * 1024 * 1024;
export const JOURNAL_MAX_PAGES = 20;

const STORE = "pages";

/** One page's unacknowledged batches: each a JSON array of events, to be sent exactly as cut. */
export interface JournalEntry {
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

/** Writes a page's entry, its oldest batches dropped past JOURNAL_MAX_BYTES; none left: deleted. */
export function saveEntry(entry: JournalEntry): Promise<unknown> {
  let bytes = 0;
  let keep = entry.batches.length;
  while (keep > 0 && bytes + entry.batches[keep - 1].length <= JOURNAL_MAX_BYTES) {
    bytes += entry.batches[--keep].length;
  }
  const batches = entry.batches.slice(keep);
  if (batches.length === 0) return deleteEntry(entry.page);
  const ranges = entry.ranges?.slice(keep);
  return withStore("readwrite", (s) => s.put({ ...entry, batches, ranges }));
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
