// The journal's IndexedDB store (sdk/journal/journal.ts): one entry per page, written within its
// bounds, read oldest first. A page's numbered events are chunks of their own store, each written
// once (sdk/journal/journal_chunks.ts); read back, they are its entry's batches again. Loaded on
// demand with the recovery (sdk/lazy/journal.ts).
import { JOURNAL_MAX_BYTES, type JournalEntry, type JournalProject } from "./journal.ts";
import { type Chunk, planChunks, type WrittenChunk } from "./journal_chunks.ts";
import { type KeptSegment, keptSize } from "./kept_segments.ts";
import type { EncodedEvent } from "@/sdk/send/encoded_event.ts";
import { MAX_EVENTS_PER_REQUEST, MAX_REQUEST_BYTES } from "@/sdk/send/buffer.ts";

const PAGES = "pages";
const CHUNKS = "chunks";
/** All of a page's chunks: their keys are [page, pageId, seq], and arrays sort after strings. */
const chunksOf = (page: string) => IDBKeyRange.bound([page], [page, []]);

/** Whether the entry was written for `project` (entries of SDKs before the key was kept: never). */
export function isOf(entry: JournalEntry, project: JournalProject): boolean {
  return entry.apiKey === project.apiKey && entry.endpoint === project.endpoint;
}

let opened: Promise<IDBDatabase | null> | null = null;

function database(): Promise<IDBDatabase | null> {
  opened ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open("playhead", 2);
      request.onupgradeneeded = () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(PAGES)) db.createObjectStore(PAGES, { keyPath: "page" });
        db.createObjectStore(CHUNKS, { keyPath: ["page", "pageId", "seq"] });
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
    } catch {
      resolve(null); // no IndexedDB here (privacy modes, sandboxed frames): memory only
    }
  });
  return opened;
}

/** Runs `use` in one transaction over both stores; resolves with whether it committed. */
async function transact(
  mode: IDBTransactionMode,
  use: (pages: IDBObjectStore, chunks: IDBObjectStore) => void,
): Promise<boolean> {
  const db = await database();
  if (!db) return false;
  return new Promise((resolve) => {
    try {
      const tx = db.transaction([PAGES, CHUNKS], mode);
      tx.oncomplete = () => resolve(true);
      tx.onerror = tx.onabort = () => resolve(false);
      use(tx.objectStore(PAGES), tx.objectStore(CHUNKS));
    } catch {
      resolve(false);
    }
  });
}

/** Keeps of `buffer` its newest segments within `left` characters (the oldest go first). */
function newestSegments(buffer: KeptSegment[] | undefined, left: number) {
  let keep = buffer?.length ?? 0;
  while (keep > 0 && keptSize(buffer![keep - 1]) <= left) left -= keptSize(buffer![--keep]);
  return buffer?.slice(keep);
}

/**
 * Writes a page's entry as recovery leaves it, within JOURNAL_MAX_BYTES: its newest batches, then
 * its buffer's newest segments in what is left (the oldest go first); its chunks go (its batches
 * hold what is left of them); nothing left: deleted.
 */
export function saveEntry(entry: JournalEntry): Promise<unknown> {
  let bytes = 0;
  let keep = entry.batches.length;
  while (keep > 0 && bytes + entry.batches[keep - 1].length <= JOURNAL_MAX_BYTES) {
    bytes += entry.batches[--keep].length;
  }
  const batches = entry.batches.slice(keep);
  const buffer = newestSegments(entry.buffer, JOURNAL_MAX_BYTES - bytes);
  if (batches.length === 0 && !buffer?.length) return deleteEntry(entry.page);
  const ranges = entry.ranges?.slice(keep);
  return transact("readwrite", (pages, chunks) => {
    chunks.delete(chunksOf(entry.page));
    pages.put({ ...entry, batches, ranges, buffer });
  });
}

/**
 * What each page of this document wrote as chunks, as planned: a write that then fails leaves its
 * page's chunks unknown, and the next one rewrites them all.
 */
const written = new Map<string, WrittenChunk[]>();

/**
 * Writes a page's unacknowledged `events` (as the flusher cut them) and its trigger buffer: the
 * chunks of the events not written yet, the deletion of those no longer unacknowledged, and the
 * entry; nothing left: deleted.
 */
export function savePage(
  entry: Omit<JournalEntry, "batches" | "ranges">,
  events: EncodedEvent[][],
): Promise<unknown> {
  const known = written.get(entry.page);
  const plan = planChunks(entry.page, events, known ?? []);
  const buffer = newestSegments(entry.buffer, plan.left);
  if (plan.kept.length === 0 && plan.unnumbered.length === 0 && !buffer?.length) {
    return deleteEntry(entry.page);
  }
  written.set(entry.page, plan.kept);
  const stored = { ...entry, batches: plan.unnumbered, ranges: plan.unnumbered.map(() => null) };
  return transact("readwrite", (pages, chunks) => {
    if (!known) chunks.delete(chunksOf(entry.page));
    for (const c of plan.drop) chunks.delete([c.page, c.pageId, c.seq]);
    for (const c of plan.add) chunks.put(c);
    pages.put({ ...stored, buffer });
  }).then((committed) => committed || written.delete(entry.page));
}

export function deleteEntry(page: string): Promise<unknown> {
  written.delete(page);
  return transact("readwrite", (pages, chunks) => {
    pages.delete(page);
    chunks.delete(chunksOf(page));
  });
}

/** Every page's entry, oldest first, its chunks as batches after its own. */
export async function allEntries(): Promise<JournalEntry[]> {
  let entries: JournalEntry[] = [], chunks: Chunk[] = [];
  await transact("readonly", (pages, chunkStore) => {
    pages.getAll().onsuccess = (e) => entries = (e.target as IDBRequest).result;
    chunkStore.getAll().onsuccess = (e) => chunks = (e.target as IDBRequest).result;
  });
  return entries.sort((a, b) => a.savedAt - b.savedAt).map((entry) => {
    const own = chunks.filter((c) => c.page === entry.page).sort((a, b) => a.order - b.order);
    if (own.length === 0) return entry;
    const merged = mergeChunks(own);
    const ranges = entry.ranges?.length === entry.batches.length
      ? entry.ranges
      : entry.batches.map(() => null);
    return {
      ...entry,
      batches: [...entry.batches, ...merged.map((b) => b.json)],
      ranges: [...ranges, ...merged.map(({ pageId, seq }) => ({ pageId, seq }))],
    };
  });
}

/** Consecutive chunks of one page's sequence as batches within one request's bounds. */
function mergeChunks(chunks: Chunk[]): { pageId: string; seq: number; json: string }[] {
  const out: { pageId: string; seq: number; count: number; parts: string[]; bytes: number }[] = [];
  for (const c of chunks) {
    const last = out.at(-1);
    if (
      last && last.pageId === c.pageId && last.seq + last.count === c.seq &&
      last.count + c.count <= MAX_EVENTS_PER_REQUEST && last.bytes + c.bytes <= MAX_REQUEST_BYTES
    ) {
      last.parts.push(c.json.slice(1, -1));
      last.count += c.count;
      last.bytes += c.bytes;
    } else {
      out.push({ ...c, parts: [c.json.slice(1, -1)] });
    }
  }
  return out.map((b) => ({ pageId: b.pageId, seq: b.seq, json: `[${b.parts.join(",")}]` }));
}
