// Ingest: one atomic statement finds the project of the public key (its
// format was checked by api/public_key.ts) and writes the session, the tracked user, the batch
// and its markers.
import type { IngestBody } from "./schema.ts";
import type { Db } from "@/db/client.ts";
import { type IngestResult, touchProject, writeIngest } from "@/db/queries/ingest/write.ts";
import { cancelSession, erasedSessionOfKey } from "@/db/queries/ingest/cancel.ts";
import { log } from "@/log.ts";
import { AppError, authError } from "@/core/errors.ts";
import { newRowId } from "@/core/ids.ts";
import type { LastUsedTracker } from "./last_used.ts";
import { type PreparedBatch, type PreparedIngest, prepareIngest } from "./prepare.ts";
import { atOnce, type HeavyWork, rowBatch, storeUnstored } from "./unstored.ts";
import { refuseTooLarge } from "./too_large.ts";

export { snapshotTimestamp } from "./prepare.ts";

export interface IngestDeps {
  db: Db;
  lastUsed: LastUsedTracker;
  /** Set when batches are offloaded: each one is then stored staged for the offloader. */
  store?: unknown;
}

export function createLastUsedWriter(db: Db): (projectId: string) => Promise<void> {
  return (projectId) => touchProject(db.kysely, projectId);
}

/** A request's write: `batch` is what was stored of its batch (a numbered one may lose events). */
export interface IngestOutcome extends IngestResult {
  batch: PreparedBatch | null;
}

export async function ingestBatch(
  deps: IngestDeps,
  projectKey: string,
  body: IngestBody,
  context: { requestId?: string; bytes?: number } = {},
): Promise<IngestOutcome> {
  return await ingestPrepared(deps, projectKey, prepareIngest(body), context);
}

/**
 * Writes a batch prepared on this thread or in a decode worker (core/ingest/prepare.ts); `heavy`
 * runs the trim of a large numbered batch (./unstored.ts).
 */
export async function ingestPrepared(
  deps: IngestDeps,
  projectKey: string,
  prepared: PreparedIngest,
  context: { requestId?: string; bytes?: number } = {},
  heavy: HeavyWork = atOnce,
): Promise<IngestOutcome> {
  const { batch, identity } = prepared;
  const result = await writeIngest(deps.db.kysely, {
    projectKey,
    newSessionId: newRowId(),
    externalId: prepared.externalId,
    metadata: prepared.metadata,
    identity: identity ? { newTrackedUserId: newRowId(), ...identity } : null,
    batch: batch && rowBatch(batch, Boolean(deps.store)),
  }).catch(refuseTooLarge(context));
  if (!result) {
    if (await erasedSessionOfKey(deps.db.kysely, projectKey, prepared.externalId)) {
      // A tab still open after its session's erasure: refused for good, the SDK stops (410).
      log.info("ingest:batch:erased", { ...context, externalId: prepared.externalId });
      throw new AppError("gone", "this session was erased; it records nothing more");
    }
    log.warn("ingest:auth:invalid_key", { ...context, reason: "unknown" });
    throw authError("unknown public key");
  }

  // Some of a numbered batch's events are stored already: the rest is stored now.
  const at = { projectKey, projectId: result.projectId, externalId: prepared.externalId };
  const written = result.overlap && batch
    ? await storeUnstored(deps, at, batch, heavy).catch(refuseTooLarge(context))
    : result.stored
    ? batch
    : null;
  deps.lastUsed.touch(result.projectId);
  if (prepared.droppedRequests > 0) {
    // The batch is stored; only the malformed requests were left out (core/ingest/network.ts).
    log.warn("ingest:network:dropped", {
      ...context,
      sessionId: result.sessionId,
      requests: prepared.droppedRequests,
    });
  }
  log.info("ingest:batch:received", {
    ...context,
    projectId: result.projectId,
    sessionId: result.sessionId,
    events: prepared.eventCount,
    created: result.created,
    duplicate: batch !== null && written === null,
    ...(result.overlap ? { stored: written?.eventCount ?? 0 } : {}),
  });
  if (result.trackedUserId && result.trackedUserId !== result.previousTrackedUserId) {
    log.debug("ingest:tracked_user:linked", {
      sessionId: result.sessionId,
      trackedUserId: result.trackedUserId,
      previousTrackedUserId: result.previousTrackedUserId,
    });
  }
  return { ...result, stored: written !== null, batch: written };
}

/** SDK-side cancel: deletes the session of the key's project, if it exists yet. */
export async function cancelIngestSession(
  deps: IngestDeps,
  projectKey: string,
  externalId: string,
  context: { requestId?: string } = {},
): Promise<{ deleted: boolean }> {
  const result = await cancelSession(deps.db.kysely, projectKey, externalId);
  if (!result) {
    log.warn("ingest:auth:invalid_key", { ...context, reason: "unknown" });
    throw authError("unknown public key");
  }
  if (result.deleted) {
    log.info("session:cancel:ok", { ...context, projectId: result.projectId, externalId });
  } else {
    log.debug("session:cancel:noop_race", { ...context, projectId: result.projectId, externalId });
  }
  return { deleted: result.deleted > 0 };
}
