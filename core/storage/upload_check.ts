// The offloader's sampled check (docs/decisions.md "Recordings in an object store"): the first
// upload and one in EVENTS_STORE_CHECK_EVERY after it have one batch read back from the store and
// opened before the upload is committed, so a store or a sealing that loses bytes is counted in
// /metrics before a replay needs them, and its batches stay staged in PostgreSQL.
import type { ObjectStore } from "@/db/object_store.ts";
import { log } from "@/log.ts";
import { type BatchPlace, openBatch, SealError } from "./seal.ts";

/** An upload whose read-back batch did not open to what was sealed: not committed. */
export class UploadCheckFailed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UploadCheckFailed";
  }
}

/**
 * Reads `range` of the object `key` back and opens it; throws UploadCheckFailed (counted, logged)
 * unless it gives `batch.gzip` again. A store that does not answer throws StoreUnavailable,
 * which is the store's failure, not the check's.
 */
export async function checkUpload(
  store: ObjectStore,
  key: string,
  range: { id: number; offset: number; length: number },
  batch: { key: CryptoKey; place: Omit<BatchPlace, "batchId">; gzip: Uint8Array },
): Promise<void> {
  const read = await store.getRange(key, range.offset, range.length);
  let problem = read ? "" : "missing";
  if (read) {
    try {
      const opened = await openBatch(batch.key, { ...batch.place, batchId: range.id }, read);
      if (!sameBytes(opened, batch.gzip)) problem = "opened to other bytes";
    } catch (error) {
      if (!(error instanceof SealError)) throw error;
      problem = "does not open";
    }
  }
  if (!problem) {
    store.seals.checks.ok++;
    return;
  }
  store.seals.checks.failed++;
  // The object stays uncommitted: the daily cleanup deletes it as an orphan.
  log.error("storage:check:failed", { key, batchId: range.id, problem });
  throw new UploadCheckFailed(`upload check of ${key}: batch ${range.id} ${problem}`);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
