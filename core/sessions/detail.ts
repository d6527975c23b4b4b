// One recorded session for the dashboard: metadata with markers, markers alone, and the events for
// replay, streamed batch by batch so a 1 GB session is never held in memory at once (deletion:
// core/sessions/erase.ts).
import type { AppDeps } from "@/core/deps.ts";
import {
  batchData,
  batchDataSlice,
  type BatchMeta,
  batchMetas,
  findSession,
  sessionMarkers,
  type SessionRow,
  snapshotBatchAt,
} from "@/db/queries/sessions/detail.ts";
import { notFound } from "@/core/errors.ts";
import { rangesWithin, resolveBytes, sealedSlices, sessionOpener } from "@/core/storage/read.ts";
import { storeDeadline } from "@/core/storage/read.ts";
import type { Opened } from "@/core/storage/open_pool.ts";
import { activeOrganization } from "@/core/org_access.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import type { EventBatchOut, MarkerKind, MarkerOut, SessionDetail } from "./schema.ts";
import { storedIso, storedIsoOr } from "@/core/stored_time.ts";

type Deps = Pick<AppDeps, "db"> & Partial<Pick<AppDeps, "store" | "opens">>;

/** Upper bound of stored bytes fetched by one query while streaming events. */
export const EVENTS_GROUP_BYTES = 8 * 1024 * 1024;

/** The viewer's session, or a not_found error. */
export async function sessionOf(deps: Deps, viewer: Viewer, id: string): Promise<SessionRow> {
  const session = await findSession(deps.db.kysely, activeOrganization(viewer), id);
  if (!session) throw notFound("session");
  return session;
}

async function markersOf(deps: Deps, sessionId: string, kind: MarkerKind | null) {
  const rows = await sessionMarkers(deps.db.kysely, sessionId, kind);
  return rows.map((m): MarkerOut => ({ timestamp: m.ts, kind: m.kind, data: m.data }));
}

export async function sessionDetail(
  deps: Deps,
  viewer: Viewer,
  id: string,
): Promise<SessionDetail> {
  const s = await sessionOf(deps, viewer, id);
  return {
    id: s.id,
    externalId: s.external_id,
    projectId: s.project_id,
    projectName: s.project_name,
    url: s.url,
    referrer: s.referrer,
    userAgent: s.user_agent,
    browser: s.browser,
    os: s.os,
    device: s.device as SessionDetail["device"],
    screenWidth: s.screen_width,
    screenHeight: s.screen_height,
    language: s.language,
    createdAt: s.created_at.toISOString(),
    startedAt: storedIsoOr(s.started_at, s.created_at),
    endedAt: storedIso(s.ended_at),
    duration: s.duration,
    eventCount: s.event_count,
    trackedUserId: s.tracked_user_id,
    trackedUser: s.tracked_user_id
      ? {
        id: s.tracked_user_id,
        externalId: s.user_external_id!,
        displayName: s.user_display_name,
        traits: s.user_traits ?? {},
      }
      : null,
    recordingReason: s.recording_reason as SessionDetail["recordingReason"],
    triggeredAt: s.triggered_at,
    pinned: s.pinned_at !== null,
    markers: await markersOf(deps, s.id, null),
  };
}

export async function sessionMarkerList(
  deps: Deps,
  viewer: Viewer,
  id: string,
  kind: MarkerKind | null,
): Promise<{ markers: MarkerOut[] }> {
  const session = await sessionOf(deps, viewer, id);
  return { markers: await markersOf(deps, session.id, kind) };
}

export interface EventsOptions {
  /** Only batches stored after this batch id (following an open session). */
  after?: number | null;
  /**
   * Only batches from the one holding the last full snapshot at or before this real offset (ms
   * from the session start) on: enough to draw that moment and play on. Every batch without one.
   */
  from?: number | null;
  /** Only the batches `from` at this offset leaves out (the rest, to load once the moment is drawn). */
  before?: number | null;
  groupBytes?: number;
  /**
   * How long reads of the object store may take in all, from the first: past it the stream ends
   * with an `unavailable` error (a page's frame goes without, FIRST_FRAME_STORE_WAIT_MS).
   */
  storeWaitMs?: number;
}

/**
 * Checks access now (so a 404 comes before any byte is sent), then yields the batches in replay
 * order, fetching their data in groups of at most `groupBytes` (one batch if it is larger). The
 * first group is read before the answer starts, so a store that is down answers 503; a group of
 * offloaded batches is read while the one before is sent (two groups in memory at most).
 */
export async function sessionEvents(
  deps: Deps,
  viewer: Viewer,
  id: string,
  options: EventsOptions = {},
): Promise<AsyncIterable<EventBatchOut>> {
  return await sessionBatches(deps, await sessionOf(deps, viewer, id), options);
}

/** `sessionEvents` of a session already found (a public link's, core/shares/). */
export async function sessionBatches(
  deps: Deps,
  session: SessionRow,
  options: EventsOptions = {},
): Promise<AsyncIterable<EventBatchOut>> {
  const stored = await storedBatches(deps, session, options);
  return (async function* () {
    for await (const { meta, bytes } of stored) {
      yield {
        id: String(meta.id),
        firstTimestamp: meta.first_ts,
        lastTimestamp: meta.last_ts,
        eventCount: meta.event_count,
        // A missing object sends no bytes: the replay skips it with a notice, like a corrupt batch.
        data: bytes ? bytes.toBase64() : "",
      };
    }
  })();
}

/** A stored batch: its row and its gzip bytes (null: an offloaded object that is missing). */
export interface StoredBatch {
  meta: BatchMeta;
  bytes: Uint8Array | null;
}

/** The stored batches of a read, and their stored (gzip) bytes in all, known before any is read. */
export type StoredBatches = AsyncIterable<StoredBatch> & { readonly bytes: number };

/** The batches `sessionBatches` sends, as stored (the server's frame at a moment reads them). */
export async function storedBatches(
  deps: Deps,
  session: SessionRow,
  {
    after = null,
    from = null,
    before = null,
    groupBytes = EVENTS_GROUP_BYTES,
    storeWaitMs,
  }: EventsOptions = {},
): Promise<StoredBatches> {
  const db = deps.db.kysely;
  const startedAt = session.started_at.getTime();
  const cut = (offset: number | null) =>
    offset === null ? null : snapshotBatchAt(db, session, startedAt + offset);
  const [fromPlace, beforePlace] = await Promise.all([cut(from), cut(before)]);
  // Before a moment with no snapshot at or before it there is nothing: `from` took every batch.
  const metas = before !== null && beforePlace === null
    ? []
    : await batchMetas(db, session, { after, from: fromPlace, before: beforePlace });
  const groups: BatchMeta[][] = [];
  for (let start = 0; start < metas.length;) {
    let end = start + 1;
    let bytes = metas[start].bytes;
    while (end < metas.length && bytes + metas[end].bytes <= groupBytes) {
      bytes += metas[end++].bytes;
    }
    groups.push(metas.slice(start, end));
    start = end;
  }
  const deadline = storeWaitMs === undefined ? null : storeDeadline(storeWaitMs);
  const open = sessionOpener(db, deps.store ?? null, session, deps.opens ?? null);
  const read = async (group: BatchMeta[]) => {
    const bytes = resolveBytes(
      deps.store ?? null,
      await batchData(deps.db.kysely, session, group.map((m) => m.id)),
      open,
    );
    return deadline && group.some((m) => m.offloaded) ? await deadline.race(bytes) : await bytes;
  };
  let first: Map<number, Opened> | null = null;
  try {
    first = groups.length ? await read(groups[0]) : null;
  } catch (error) {
    deadline?.stop();
    throw error;
  }
  const batches = (async function* () {
    let next: Promise<Map<number, Opened>> | null = null;
    try {
      for (let i = 0; i < groups.length; i++) {
        const data = i === 0 ? first! : await (next ?? read(groups[i]));
        next = groups[i + 1]?.some((m) => m.offloaded) ? read(groups[i + 1]) : null;
        next?.catch(() => {}); // awaited by the next round; a stream cut short never asks
        for (const meta of groups[i]) {
          if (!data.has(meta.id)) continue; // deleted while streaming
          const bytes = await data.get(meta.id)!;
          data.delete(meta.id); // let each batch's bytes go as soon as it is used
          yield { meta, bytes };
        }
      }
    } finally {
      deadline?.stop();
    }
  })();
  return Object.assign(batches, { bytes: metas.reduce((sum, meta) => sum + meta.bytes, 0) });
}

/** The first slice read of a batch's stored bytes; each next one is twice as long. */
const FIRST_SLICE_BYTES = 64 * 1024;

/**
 * How long the replay page waits on the object store for its first frame (docs/decisions.md
 * "Recordings in an object store"): past it the page goes without one, at once.
 */
export const FIRST_FRAME_STORE_WAIT_MS = 250;

/**
 * Checks access now, then yields the session's first `limit` batches in replay order, each as its
 * stored gzip bytes in growing slices: the reader of the first frame usually stops early in the
 * first batch, and a large batch is then never read whole.
 */
export async function sessionFirstBatches(
  deps: Deps,
  viewer: Viewer,
  id: string,
  limit: number,
): Promise<AsyncIterable<AsyncIterable<Uint8Array>>> {
  return firstBatchesOf(deps, await sessionOf(deps, viewer, id), limit);
}

/** As `sessionFirstBatches`, of a session whose access was checked. */
export function firstBatchesOf(
  deps: Deps,
  session: SessionRow,
  limit: number,
): AsyncIterable<AsyncIterable<Uint8Array>> {
  // A store that is down, slow or frozen, or an object that is missing, ends the slices: no first
  // frame then, and the player reads the recording (and reports the store's state) itself.
  const store = rangesWithin(deps.store ?? null, FIRST_FRAME_STORE_WAIT_MS);
  const sealed = sealedSlices(
    store.read,
    sessionOpener(deps.db.kysely, deps.store ?? null, session, deps.opens ?? null),
  );
  const slice = async (index: number, from: number, length: number) => {
    const bytes = await batchDataSlice(deps.db.kysely, session, index, from, length);
    if (!bytes || "data" in bytes) return bytes?.data ?? null;
    return bytes.sealed ? await sealed(bytes, from, length) : await store.read(bytes);
  };
  return (async function* () {
    try {
      yield* batches();
    } finally {
      store.stop();
    }
  })();

  async function* batches() {
    for (let index = 0; index < limit; index++) {
      const first = await slice(index, 0, FIRST_SLICE_BYTES);
      if (!first) return;
      yield (async function* () {
        let bytes: Uint8Array | null = first;
        for (let from = 0, length = FIRST_SLICE_BYTES; bytes?.length; length *= 2) {
          const read = bytes.length; // the reader may take the bytes (a worker's transfer)
          yield bytes;
          if (read < length) return;
          from += length;
          bytes = await slice(index, from, length * 2);
        }
      })();
    }
  }
}
