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
import { OPEN_IN_WORKER_BYTES, type Opened, type OpenPool } from "./open_pool.ts";

/** Bytes between two ranges of one object that are still read as one request (then dropped). */
const MERGE_GAP_BYTES = 64 * 1024;
/** Seconds a client waits before asking again when the store is down. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** A sealed batch as read: its id and its bytes. */
export interface SealedRead {
  id: number;
  bytes: Uint8Array;
}

/**
 * Opens a session's sealed batches of one read, each settled as it opens (null for one that does
 * not, reported). `transfer`: the buffer all their bytes view, which the opener may take (a
 * worker's transfer).
 */
export type Opener = (batches: SealedRead[], transfer: ArrayBuffer | null) => Opened[];

/**
 * Opens one session's sealed batches, reading its data key once, at the first: a read of at least
 * `OPEN_IN_WORKER_BYTES` in `pool`'s worker (its buffer handed over), a smaller one here. A batch
 * that does not open (bytes moved from another place or altered, its key destroyed or not
 * unwrapped) is null, logged and counted (/metrics), never answered as bytes; a database error
 * throws.
 */
export function sessionOpener(
  db: Kysely<Database>,
  store: ObjectStore | null,
  session: { id: string; project_id: string; external_id: string },
  pool: OpenPool | null = null,
): Opener {
  return keyOpener(
    store && (() => sessionKey(db, store.config.keys, session.id, pool !== null)),
    store?.seals ?? null,
    session,
    pool,
  );
}

/**
 * As `sessionOpener`, its data key read by `readKey` (extractable when `pool` is given); `seals`
 * counts what does not open. Null `readKey`: no store, nothing opens (nor is counted).
 */
export function keyOpener(
  readKey: (() => Promise<CryptoKey | null>) | null,
  seals: ObjectStore["seals"] | null,
  session: { id: string; project_id: string; external_id: string },
  pool: OpenPool | null,
): Opener {
  let key: Promise<CryptoKey | null> | null = null;
  let raw: Promise<Uint8Array> | null = null;
  let logged = false;
  const place = { projectId: session.project_id, sessionExternalId: session.external_id };
  const unreadable = (reason: UnreadableReason, batchId: number) => {
    seals!.unreadable[reason]++;
    // Once per read: a session without its key would otherwise log each of its batches.
    if (!logged || reason === "decrypt") {
      log.error("storage:open:failed", { reason, sessionId: session.id, batchId });
      logged = true;
    }
    return null;
  };
  const openAll = async (batches: SealedRead[], transfer: ArrayBuffer | null) => {
    if (!readKey) return batches.map(() => Promise.resolve(null));
    let k: CryptoKey | null;
    try {
      key ??= readKey();
      k = await key;
    } catch (error) {
      if (!(error instanceof KeyUnavailable)) throw error;
      return batches.map((b) => Promise.resolve(unreadable("unwrap", b.id)));
    }
    if (!k) return batches.map((b) => Promise.resolve(unreadable("no_key", b.id)));
    const dataKey = k;
    const inline = () =>
      batches.map((b) =>
        openBatch(dataKey, { ...place, batchId: b.id }, b.bytes).catch((error) => {
          if (error instanceof SealError) return null;
          throw error;
        })
      );
    const bytes = batches.reduce((sum, b) => sum + b.bytes.length, 0);
    const handOver = pool && transfer && bytes >= OPEN_IN_WORKER_BYTES &&
      batches.every((b) => b.bytes.buffer === transfer);
    const opened = handOver
      ? pool.open(
        await (raw ??= crypto.subtle.exportKey("raw", dataKey).then((r) => new Uint8Array(r))),
        place,
        transfer,
        batches.map((b) => ({ batchId: b.id, offset: b.bytes.byteOffset, length: b.bytes.length })),
        inline,
      )
      : inline();
    return opened.map((o, i) => o.then((bytes) => bytes ?? unreadable("decrypt", batches[i].id)));
  };
  return (batches, transfer) => {
    const all = openAll(batches, transfer);
    return batches.map((_, i) => all.then((opened) => opened[i]));
  };
}

/** The whole buffer `bytes` views, or null when it views only part of one (others may use it). */
function wholeBuffer(bytes: Uint8Array): ArrayBuffer | null {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  return whole && bytes.buffer instanceof ArrayBuffer ? bytes.buffer : null;
}

/**
 * Each batch's gzip bytes, by id, once every store read has answered: inline ones as they are,
 * offloaded ones read from the store, sealed ones settled as `open` opens each (so the first can
 * be sent while the next opens). A missing object or range, or a batch that does not open, gives
 * null (the replay reports that part as it does a corrupt batch); a store that does not answer
 * throws 503 `unavailable`; an opening that fails (a database error) rejects its batch.
 */
export async function resolveBytes(
  store: ObjectStore | null,
  batches: Map<number, BatchBytes>,
  open: Opener,
): Promise<Map<number, Opened>> {
  const out = new Map<number, Opened>();
  const ranges: Array<StoredRange & { id: number }> = [];
  for (const [id, bytes] of batches) {
    if ("data" in bytes) out.set(id, Promise.resolve(bytes.data));
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
      const sealed: SealedRead[] = [];
      for (const r of read) {
        const range = bytes?.subarray(r.offset - start, r.offset - start + r.length) ?? null;
        if (range && r.sealed) sealed.push({ id: r.id, bytes: range });
        else out.set(r.id, Promise.resolve(range));
      }
      // The read's buffer may go to a worker when all of it is sealed batches' (then unused here).
      const transfer = sealed.length === read.length && bytes ? wholeBuffer(bytes) : null;
      const opened = sealed.length ? open(sealed, transfer) : [];
      // A reader that stops early never awaits the rest: their failures are its to see, or none's.
      for (const bytes of opened) bytes.catch(() => {});
      sealed.forEach(({ id }, i) => out.set(id, opened[i]));
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
      const bytes = read(range).then((sealed) =>
        sealed && open([{ id: range.id, bytes: sealed }], wholeBuffer(sealed))[0]
      );
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
