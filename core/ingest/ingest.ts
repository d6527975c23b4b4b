// Ingest (spec §4 server steps 1–6): one statement finds the project of the public key (its
// format was checked by api/public_key.ts) and writes the session, the tracked user, the batch
// and its markers.
import { createHash } from "node:crypto";
import type { IngestBody } from "./schema.ts";
import type { Db } from "../../db/client.ts";
import {
  cancelSession,
  type IngestResult,
  touchProject,
  writeIngest,
} from "../../db/queries/ingest/write.ts";
import { log } from "../../log.ts";
import { authError } from "../errors.ts";
import { gzip } from "../gzip.ts";
import { newRowId } from "../ids.ts";
import type { LastUsedTracker } from "./last_used.ts";
import { countSignals, extractMarkers, pathnameOf } from "./markers.ts";
import { parseUserAgent } from "./user_agent.ts";

const encoder = new TextEncoder();

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
  const { events, metadata } = body;
  const identity = metadata?.userIdentity;

  let batch = null;
  if (events.length > 0) {
    const json = encoder.encode(JSON.stringify(events));
    // node:crypto's synchronous hash costs a fraction of crypto.subtle's round trip per request.
    const digest = createHash("sha256").update(json).digest();
    const data = gzip(json);
    let firstTs = Infinity, lastTs = -Infinity;
    for (const event of events) {
      if (event.timestamp < firstTs) firstTs = event.timestamp;
      if (event.timestamp > lastTs) lastTs = event.timestamp;
    }
    const markers = extractMarkers(events);
    const counts = countSignals(markers);
    batch = {
      firstTs,
      lastTs,
      snapshotTs: snapshotTimestamp(events),
      eventCount: events.length,
      digest,
      data,
      sliceMarkersJson: body.sliceMarkers ? JSON.stringify(body.sliceMarkers) : null,
      staged: Boolean(deps.store),
      markersJson: JSON.stringify(markers),
      signals: counts.error + counts.rage_click + counts.dead_click > 0
        ? { errors: counts.error, rageClicks: counts.rage_click, deadClicks: counts.dead_click }
        : null,
    };
  }

  const result = await writeIngest(deps.db.kysely, {
    projectKey,
    newSessionId: newRowId(),
    externalId: body.sessionId,
    metadata: metadata
      ? { ...metadata, pathname: pathnameOf(metadata.url), ...parseUserAgent(metadata.userAgent) }
      : null,
    identity: identity
      ? {
        newTrackedUserId: newRowId(),
        userId: identity.userId,
        traitsJson: JSON.stringify(identity.traits),
      }
      : null,
    batch,
  });
  if (!result) {
    log.warn("ingest:auth:invalid_key", { ...context, reason: "unknown" });
    throw authError("unknown public key");
  }

  deps.lastUsed.touch(result.projectId);
  log.info("ingest:batch:received", {
    ...context,
    projectId: result.projectId,
    sessionId: result.sessionId,
    events: events.length,
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

/**
 * When the batch's first full snapshot (type 2) that follows a Meta (type 4) in the batch was taken:
 * a replay can start drawing there without any earlier batch (migration 0015).
 */
export function snapshotTimestamp(events: readonly { type: number; timestamp: number }[]) {
  let meta = false;
  for (const event of events) {
    if (event.type === 4) meta = true;
    else if (event.type === 2 && meta) return event.timestamp;
  }
  return null;
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
