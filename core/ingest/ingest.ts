// Ingest: one atomic statement finds the project of the public key (its
// format was checked by api/public_key.ts) and writes the session, the tracked user, the batch
// and its markers.
import type { IngestBody } from "./schema.ts";
import type { Db } from "@/db/client.ts";
import { type IngestResult, touchProject, writeIngest } from "@/db/queries/ingest/write.ts";
import { cancelSession } from "@/db/queries/ingest/cancel.ts";
import { log } from "@/log.ts";
import { authError } from "@/core/errors.ts";
import { newRowId } from "@/core/ids.ts";
import type { LastUsedTracker } from "./last_used.ts";
import { type PreparedIngest, prepareIngest } from "./prepare.ts";

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

export async function ingestBatch(
  deps: IngestDeps,
  projectKey: string,
  body: IngestBody,
  context: { requestId?: string; bytes?: number } = {},
): Promise<IngestResult> {
  return await ingestPrepared(deps, projectKey, prepareIngest(body), context);
}

/** Writes a batch prepared on this thread or in a decode worker (core/ingest/prepare.ts). */
export async function ingestPrepared(
  deps: IngestDeps,
  projectKey: string,
  prepared: PreparedIngest,
  context: { requestId?: string; bytes?: number } = {},
): Promise<IngestResult> {
  const { batch, identity } = prepared;
  const result = await writeIngest(deps.db.kysely, {
    projectKey,
    newSessionId: newRowId(),
    externalId: prepared.externalId,
    metadata: prepared.metadata,
    identity: identity ? { newTrackedUserId: newRowId(), ...identity } : null,
    batch: batch && { ...batch, staged: Boolean(deps.store) },
  });
  if (!result) {
    log.warn("ingest:auth:invalid_key", { ...context, reason: "unknown" });
    throw authError("unknown public key");
  }

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
    duplicate: batch !== null && !result.stored,
  });
  if (result.trackedUserId && result.trackedUserId !== result.previousTrackedUserId) {
    log.debug("ingest:tracked_user:linked", {
      sessionId: result.sessionId,
      trackedUserId: result.trackedUserId,
      previousTrackedUserId: result.previousTrackedUserId,
    });
  }
  return result;
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
