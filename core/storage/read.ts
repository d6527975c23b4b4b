// Reading offloaded batches back: the ranges of one object that follow each other (a
// session's batches are packed contiguous, in replay order) are fetched by one range request and
// cut apart, so a replay costs about one request per object it spans; sealed ones are opened
// under their session's data key.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import type { BatchBytes, StoredRange } from "@/db/queries/sessions/detail.ts";
import { unavailable } from "@/core/errors.ts";
import { log } from "@/log.ts";
import { type ObjectStore, StoreUnavailable, type UnreadableReason } from "@/db/object_store.ts";
import { KeyUnavailable, sessionKey } from "./keys.ts";
import { openBatch, SealError } from "./seal.ts";

/** Bytes between two ranges of one object that are still read as one request (then dropped). */
const MERGE_GAP_BYTES = 64 * 1024;
/** Seconds a client waits before asking again when the store is down. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** A session's sealed batch (as read) opened, by its id; null when it does not open (reported). */
export type Opener = (batchId: number, sealed: Uint8Array) => Promise<Uint8Array | null>;

/**
 * Opens one session's sealed batches, reading its data key once, at the first. A batch that does
 * not open (bytes moved from another place or altered, its key destroyed or not unwrapped) is
 * null, logged and counted (/metrics), never answered as bytes; a database error throws.
 */
export function sessionOpener(
  db: Kysely<Database>,
  store: ObjectStore | null,
  session: { id: string; project_id: string; external_id: string },
): Opener {
  let key: Promise<CryptoKey | null> | null = null;
  let logged = false;
  return async (batchId, sealed) => {
    if (!store) return null;
    let reason: UnreadableReason;
    try {
      key ??= sessionKey(db, store.config.keys, session.id);
      const k = await key;
      if (k) {
        const place = { projectId: session.project_id, sessionExternalId: session.external_id };
        return await openBatch(k, { ...place, batchId }, sealed);
      }
      reason = "no_key";
    } catch (error) {
      if (error instanceof SealError) reason = "decrypt";
      else if (error instanceof KeyUnavailable) reason = "unwrap";
      else throw error;
    }
    store.seals.unreadable[reason]++;
    // Once per read: a session without its key would otherwise log each of its batches.
    if (!logged || reason === "decrypt") {
      log.error("storage:open:failed", { reason, sessionId: session.id, batchId });
      logged = true;
    }
    return null;
  };
}

/**
 * Each batch's gzip bytes, by id: inline ones as they are, offloaded ones read from the store
 * (sealed ones opened by `open`). A missing object or range, or a batch that does not open, gives
 * null (the replay reports that part as it does a corrupt batch); a store that does not answer
 * throws 503 `unavailable`.
 */
export async function resolveBytes(
  store: ObjectStore | null,
  batches: Map<number, BatchBytes>,
  open: Opener,
): Promise<Map<number, Uint8Array | null>> {
  const out = new Map<number, Uint8Array | null>();
  const ranges: Array<StoredRange & { id: number }> = [];
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
      await Promise.all(read.map(async (r) => {
        const range = bytes?.subarray(r.offset - start, r.offset - start + r.length) ?? null;
        out.set(r.id, range && r.sealed ? await open(r.id, range) : range);
      }));
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

/**
 * Slices of sealed batches for a reader of growing slices: a sealed batch opens only whole, so
 * each is read (by `read`) and opened once, and its slices are copies (a reader may take them).
 */
export function sealedSlices(
  read: (range: StoredRange) => Promise<Uint8Array | null>,
  open: Opener,
) {
  let opened: { id: number; bytes: Promise<Uint8Array | null> } | null = null;
  return async (range: StoredRange & { id: number }, from: number, length: number) => {
    if (opened?.id !== range.id) {
      const bytes = read(range).then((sealed) => sealed && open(range.id, sealed));
      opened = { id: range.id, bytes };
    }
    return (await opened.bytes)?.slice(from, from + length) ?? null;
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
