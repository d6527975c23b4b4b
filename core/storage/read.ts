// Reading offloaded batches back: the ranges of one object that follow each other (a
// session's batches are packed contiguous, in replay order) are fetched by one range request and
// cut apart, so a replay costs about one request per object it spans.
import type { BatchBytes } from "@/db/queries/sessions/detail.ts";
import { unavailable } from "@/core/errors.ts";
import { log } from "@/log.ts";
import { type ObjectStore, StoreUnavailable } from "@/db/object_store.ts";

/** Bytes between two ranges of one object that are still read as one request (then dropped). */
const MERGE_GAP_BYTES = 64 * 1024;
/** Seconds a client waits before asking again when the store is down. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * Each batch's gzip bytes, by id: inline ones as they are, offloaded ones read from the store. A
 * missing object or range gives null (the replay reports that part as it does a corrupt batch);
 * a store that does not answer throws 503 `unavailable`.
 */
export async function resolveBytes(
  store: ObjectStore | null,
  batches: Map<number, BatchBytes>,
): Promise<Map<number, Uint8Array | null>> {
  const out = new Map<number, Uint8Array | null>();
  const ranges: Array<{ id: number; key: string; offset: number; length: number }> = [];
  for (const [id, bytes] of batches) {
    if ("data" in bytes) out.set(id, bytes.data);
    else ranges.push({ id, ...bytes });
  }
  if (!ranges.length) return out;
  if (!store) throw unavailable("recordings are offloaded but EVENTS_STORE is not configured");
  ranges.sort((a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : a.offset - b.offset);
  const reads: Array<typeof ranges> = [];
  for (const range of ranges) {
    const last = reads.at(-1)?.at(-1);
    const near = last && last.key === range.key && range.offset >= last.offset + last.length &&
      range.offset - (last.offset + last.length) <= MERGE_GAP_BYTES;
    if (near) reads.at(-1)!.push(range);
    else reads.push([range]);
  }
  try {
    await Promise.all(reads.map(async (read) => {
      const start = read[0].offset;
      const end = read.at(-1)!.offset + read.at(-1)!.length;
      const bytes = await store.getRange(read[0].key, start, end - start);
      if (!bytes) log.error("storage:read:missing", { key: read[0].key, start, end });
      for (const r of read) {
        out.set(r.id, bytes ? bytes.subarray(r.offset - start, r.offset - start + r.length) : null);
      }
    }));
  } catch (error) {
    if (!(error instanceof StoreUnavailable)) throw error;
    log.warn("storage:read:failed", { error: error.message });
    throw unavailable("the recording store is unavailable", STORE_RETRY_AFTER_SECONDS);
  }
  return out;
}

/**
 * Reads ranges for a page that must not wait on the store: null (no bytes) once `waitMs` have
 * passed since its first read, or at once while the store is known to be down. A read it stops
 * waiting for runs on to the store's own timeout, its outcome dropped. `stop()` ends its timer.
 */
export function rangesWithin(store: ObjectStore | null, waitMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let deadline: Promise<null> | null = null;
  return {
    read(bytes: { key: string; offset: number; length: number }): Promise<Uint8Array | null> {
      if (!store || store.status() === "unavailable") return Promise.resolve(null);
      deadline ??= new Promise((resolve) => timer = setTimeout(resolve, waitMs, null));
      return Promise.race([readRange(store, bytes).catch(() => null), deadline]);
    },
    stop: () => clearTimeout(timer),
  };
}

/** One range of an object, or null when it is missing; throws StoreUnavailable when down. */
export function readRange(
  store: ObjectStore | null,
  bytes: { key: string; offset: number; length: number },
): Promise<Uint8Array | null> {
  if (!store) throw new StoreUnavailable("EVENTS_STORE is not configured");
  if (bytes.length === 0) return Promise.resolve(new Uint8Array());
  return store.getRange(bytes.key, bytes.offset, bytes.length);
}

/** One time limit for a stream's store reads, started by the first read that waits on it. */
export function storeDeadline(waitMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let expired: Promise<never> | null = null;
  return {
    race<T>(read: Promise<T>): Promise<T> {
      read.catch(() => {}); // a read given up on settles unheard
      expired ??= new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(unavailable(`the object store did not answer within ${waitMs} ms`)),
          waitMs,
        );
      });
      expired.catch(() => {});
      return Promise.race([read, expired]);
    },
    stop: () => clearTimeout(timer),
  };
}
