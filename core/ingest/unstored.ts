// A numbered batch whose claim met numbers its page has stored (another copy of some of its events
// came first, cut differently): what is stored is read, the batch trimmed to the rest and claimed
// again, so each event is stored, counted and marked once (docs/decisions.md "Ingest").
import type { Db } from "@/db/client.ts";
import { type IngestRow, writeIngest } from "@/db/queries/ingest/write.ts";
import { storedSequences } from "@/db/queries/ingest/write_sequences.ts";
import { authError, unavailable } from "@/core/errors.ts";
import { newRowId } from "@/core/ids.ts";
import type { PreparedBatch } from "./prepare.ts";
import { fromMultirange, toMultirange } from "./seq_ranges.ts";
import { trimBatch } from "./trim.ts";

/** Claims of one request after its first: each follows another copy's claim that came between. */
const MAX_RETRIMS = 3;
/** Gzipped batches from this size on are trimmed in `heavy`'s turns (a large decode's work). */
const HEAVY_BYTES = 32 * 1024;

/** Runs synchronous work of a large body: the API's turns for large decodes, or at once. */
export type HeavyWork = <T>(work: () => T) => Promise<T>;

export const atOnce: HeavyWork = (work) => Promise.resolve(work());

/** The row's batch: the prepared one, staged or not, its claim as an int8multirange. */
export function rowBatch(batch: PreparedBatch, staged: boolean): NonNullable<IngestRow["batch"]> {
  const { range, ...rest } = batch;
  return {
    ...rest,
    staged,
    range: range && { pageId: range.pageId, claim: toMultirange(range.claim) },
  };
}

/**
 * Stores the rest of `batch` (the session's metadata and identity went with the first write);
 * returns what was stored of it, null for nothing. A claim that meets numbers once more (a third
 * copy came between the read and the write) reads again; past MAX_RETRIMS the request is 503 and
 * the SDK sends it again.
 */
export async function storeUnstored(
  deps: { db: Db; store?: unknown },
  at: { projectKey: string; projectId: string; externalId: string },
  batch: PreparedBatch,
  heavy: HeavyWork,
): Promise<PreparedBatch | null> {
  for (let attempt = 0;; attempt++) {
    const range = batch.range!;
    const stored = fromMultirange(
      await storedSequences(deps.db.kysely, at.projectId, at.externalId, range.pageId),
    );
    const trim = () => trimBatch(batch, stored);
    const rest = batch.data.byteLength >= HEAVY_BYTES ? await heavy(trim) : trim();
    if (!rest) return null;
    if (attempt === MAX_RETRIMS) throw unavailable("the page's events are arriving at once", 1);
    const result = await writeIngest(deps.db.kysely, {
      projectKey: at.projectKey,
      newSessionId: newRowId(),
      externalId: at.externalId,
      metadata: null,
      identity: null,
      batch: rowBatch(rest, Boolean(deps.store)),
    });
    if (!result) throw authError("unknown public key");
    if (!result.overlap) return result.stored ? rest : null;
    batch = rest;
  }
}
