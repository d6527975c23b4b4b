// The journal's IndexedDB store (sdk/journal/journal.ts): one entry per page, written within its bounds,
// read oldest first. Loaded on demand with the recovery (sdk/lazy/journal.ts).
import { JOURNAL_MAX_BYTES, type JournalEntry, type JournalProject } from "./journal.ts";
import { keptSize } from "./kept_segments.ts";

const STORE = "pages";

/** Whether the entry was written for `project` (entries of SDKs before the key was kept: never). */
export function isOf(entry: JournalEntry, project: JournalProject): boolean {
  return entry.apiKey === project.apiKey && entry.endpoint === project.endpoint;
}

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
