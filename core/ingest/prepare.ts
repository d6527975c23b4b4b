// The CPU part of ingest: from a validated body to the row the one statement writes,
// without the database. It runs on the main thread for small bodies and in a decode worker for
// large ones (api/ingest/decode_pool.ts), so nothing here may touch deps or the process.
import { createHash } from "node:crypto";
import { EventType } from "@rrweb/types";
import type { IngestRow } from "@/db/queries/ingest/write.ts";
import { gzip } from "@/core/gzip.ts";
import { countSignals, extractMarkers, pathnameOf, vitalRatings } from "./markers.ts";
import { boundNetworkEvents, networkCounts, networkErrorMarkers } from "./network.ts";
import { isNetworkEvent, type NetworkRequest } from "@/recording/network.ts";
import type { IngestBody } from "./schema.ts";
import { rangesOf, type SeqRanges } from "./seq_ranges.ts";
import { parseUserAgent } from "./user_agent.ts";

const encoder = new TextEncoder();

type Batch = NonNullable<IngestRow["batch"]>;

/** A batch ready to write: the row without the ids and the staging the main thread adds. */
export interface PreparedIngest extends Pick<IngestRow, "externalId" | "metadata"> {
  identity: { userId: string; traitsJson: string } | null;
  batch: PreparedBatch | null;
  eventCount: number;
  /** Network requests left out as malformed (core/ingest/network.ts). */
  droppedRequests: number;
}

export interface PreparedBatch extends Omit<Batch, "staged" | "range"> {
  range: PreparedRange | null;
}

/** Where a numbered batch's events sit in its page's sequence (core/ingest/trim.ts). */
export interface PreparedRange {
  pageId: string;
  /** The numbers this batch stands for, which its write claims: those it received, less any trim. */
  claim: SeqRanges;
  /** The number of each event in `data`, in order (bounding may leave out network events). */
  stored: SeqRanges;
}

/**
 * The events' JSON as the client sent it and its gzip member (api/ingest/sent_parts.ts): stored as
 * they came when nothing rewrites the events, so the server neither re-serialises nor gzips them.
 */
export interface SentEvents {
  /** A whole gzip file that inflates to `json`. */
  gzip: Uint8Array;
  json: Uint8Array;
}

/** The row of `body`; `sent`, its events as they came, is stored when they are stored unchanged. */
export function prepareIngest(body: IngestBody, sent: SentEvents | null = null): PreparedIngest {
  const { metadata } = body;
  const { events, summary: network } = boundNetworkEvents(body.events);
  const identity = metadata?.userIdentity;

  let batch: PreparedIngest["batch"] = null;
  if (events.length > 0) {
    const range = body.pageId === undefined || body.seq === undefined ? null : {
      pageId: body.pageId,
      claim: [[body.seq, body.seq + body.events.length]] as SeqRanges,
      stored: storedSeqs(body.events, events.length, body.seq),
    };
    // Bounding rewrites network events (a new array when there are any): those are serialised anew.
    const asSent = events === body.events ? sent : null;
    batch = prepareBatch(events, network.requests, body.sliceMarkers, range, asSent);
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
 * The stored row of `events` (bounded already), their `requests` and the body's slice markers;
 * `sent` is their JSON and its gzip as they came, which `JSON.stringify(events)` would give.
 */
export function prepareBatch(
  events: IngestBody["events"],
  requests: readonly NetworkRequest[],
  sliceMarkers: IngestBody["sliceMarkers"],
  range: PreparedRange | null,
  sent: SentEvents | null = null,
): PreparedBatch {
  const json = sent?.json ?? encoder.encode(JSON.stringify(events));
  // The digest is of the events' JSON either way: a copy re-sent in another shape (a keepalive
  // body, the journal's) has the same one (docs/decisions.md "Ingest").
  // node:crypto's synchronous hash costs a fraction of crypto.subtle's round trip per request.
  const digest = createHash("sha256").update(json).digest();
  const data = sent?.gzip ?? gzip(json);
  let firstTs = Infinity, lastTs = -Infinity;
  for (const event of events) {
    if (event.timestamp < firstTs) firstTs = event.timestamp;
    if (event.timestamp > lastTs) lastTs = event.timestamp;
  }
  const markers = [...extractMarkers(events), ...networkErrorMarkers(requests)];
  const counts = countSignals(markers);
  const network = networkCounts(requests);
  const vitals = vitalRatings(markers);
  return {
    firstTs,
    lastTs,
    snapshotTs: snapshotTimestamp(events),
    eventCount: events.length,
    digest,
    data,
    sliceMarkersJson: sliceMarkers ? JSON.stringify(sliceMarkers) : null,
    markersJson: JSON.stringify(markers),
    signals: counts.error + counts.rage_click + counts.dead_click > 0
      ? { errors: counts.error, rageClicks: counts.rage_click, deadClicks: counts.dead_click }
      : null,
    network: network.maxRequestMs > 0 || network.errors > 0 || vitals.length > 0
      ? { errors: network.errors, maxRequestMs: network.maxRequestMs, vitals }
      : null,
    range,
  };
}

/**
 * The numbers of the events bounding kept of `received` (numbered from `first`): all of them,
 * unless it left out network events with no request worth keeping.
 */
function storedSeqs(received: IngestBody["events"], kept: number, first: number): SeqRanges {
  if (kept === received.length) return [[first, first + received.length]];
  const keeps = (e: IngestBody["events"][number]) =>
    !isNetworkEvent(e) || boundNetworkEvents([e]).events.length > 0;
  return rangesOf(received.flatMap((e, i) => keeps(e) ? [first + i] : []));
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
