// The CPU part of ingest: from a validated body to the row the one statement writes,
// without the database. It runs on the main thread for small bodies and in a decode worker for
// large ones (api/ingest/decode_pool.ts), so nothing here may touch deps or the process.
import { createHash } from "node:crypto";
import { EventType } from "@rrweb/types";
import type { IngestRow } from "@/db/queries/ingest/write.ts";
import { gzip } from "@/core/gzip.ts";
import { countSignals, extractMarkers, pathnameOf, vitalRatings } from "./markers.ts";
import { boundNetworkEvents, networkCounts, networkErrorMarkers } from "./network.ts";
import type { IngestBody } from "./schema.ts";
import { parseUserAgent } from "./user_agent.ts";

const encoder = new TextEncoder();

type Batch = NonNullable<IngestRow["batch"]>;

/** A batch ready to write: the row without the ids and the staging the main thread adds. */
export interface PreparedIngest extends Pick<IngestRow, "externalId" | "metadata"> {
  identity: { userId: string; traitsJson: string } | null;
  batch: Omit<Batch, "staged"> | null;
  eventCount: number;
  /** Network requests left out as malformed (core/ingest/network.ts). */
  droppedRequests: number;
}

export function prepareIngest(body: IngestBody): PreparedIngest {
  const { metadata } = body;
  const { events, summary: network } = boundNetworkEvents(body.events);
  const identity = metadata?.userIdentity;

  let batch: PreparedIngest["batch"] = null;
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
    const markers = [...extractMarkers(events), ...networkErrorMarkers(network.requests)];
    const counts = countSignals(markers);
    const requests = networkCounts(network.requests);
    const vitals = vitalRatings(markers);
    batch = {
      firstTs,
      lastTs,
      snapshotTs: snapshotTimestamp(events),
      eventCount: events.length,
      digest,
      data,
      sliceMarkersJson: body.sliceMarkers ? JSON.stringify(body.sliceMarkers) : null,
      markersJson: JSON.stringify(markers),
      signals: counts.error + counts.rage_click + counts.dead_click > 0
        ? { errors: counts.error, rageClicks: counts.rage_click, deadClicks: counts.dead_click }
        : null,
      network: requests.maxRequestMs > 0 || requests.errors > 0 || vitals.length > 0
        ? { errors: requests.errors, maxRequestMs: requests.maxRequestMs, vitals }
        : null,
    };
  }

  let stored: PreparedIngest["metadata"] = null;
  if (metadata) {
    const { userIdentity: _, ...fields } = metadata;
    stored = {
      ...fields,
      pathname: pathnameOf(metadata.url),
      ...parseUserAgent(metadata.userAgent),
    };
  }
  return {
    externalId: body.sessionId,
    eventCount: events.length,
    droppedRequests: network.dropped,
    metadata: stored,
    identity: identity
      ? { userId: identity.userId, traitsJson: JSON.stringify(identity.traits) }
      : null,
    batch,
  };
}

/**
 * When the batch's first full snapshot that follows a Meta in the batch was taken:
 * a replay can start drawing there without any earlier batch (migration 0015).
 */
export function snapshotTimestamp(events: readonly { type: number; timestamp: number }[]) {
  let meta = false;
  for (const event of events) {
    if (event.type === EventType.Meta) meta = true;
    else if (event.type === EventType.FullSnapshot && meta) return event.timestamp;
  }
  return null;
}
