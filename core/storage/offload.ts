// The offloader (docs/decisions.md "Recordings in an object store"): staged batches, committed to
// PostgreSQL by ingest before its 204, are sealed under their session's data key and packed into
// one object per flush and day of session creation (each session's batches contiguous, in replay
// order), uploaded, then pointed at in one transaction. Every instance runs it; claims (FOR UPDATE
// SKIP LOCKED) keep two from packing the same batch.
import type { Db } from "@/db/client.ts";
import {
  type ClaimedBatch,
  claimedData,
  claimStaged,
  commitObject,
  type Placement,
  recordObject,
  releaseClaim,
} from "@/db/queries/storage/offload.ts";
import { forgetObject } from "@/db/queries/storage/objects.ts";
import { log } from "@/log.ts";
import type { ObjectStore } from "@/db/object_store.ts";
import { offloadKeys, sessionRef } from "./keys.ts";
import { checkUpload } from "./upload_check.ts";
import { sealBatch } from "./seal.ts";

export interface OffloadDeps {
  db: Db;
  store: ObjectStore;
}

export interface OffloadResult {
  batches: number;
  bytes: number;
  objects: number;
}

/**
 * How long a claim holds: past it another instance may take the batches (this one crashed or
 * stalled); a late commit here then finds the claim gone and drops its object.
 */
export const CLAIM_MS = 5 * 60_000;

/** One flush: claims up to `flushBytes` of staged batches and offloads them, day by day. */
export async function offloadOnce(deps: OffloadDeps): Promise<OffloadResult> {
  const { db, store } = deps;
  const claim = crypto.randomUUID();
  const claimed = await claimStaged(db.kysely, claim, store.config.flushBytes, CLAIM_MS);
  const result: OffloadResult = { batches: 0, bytes: 0, objects: 0 };
  try {
    for (const batches of byDay(claimed)) {
      const { moved, bytes } = await offloadDay(deps, claim, batches);
      result.batches += moved;
      result.bytes += bytes;
      if (moved) result.objects++;
    }
  } catch (error) {
    await releaseClaim(db.kysely, claim, claimed.map((b) => b.id)).catch(() => {});
    throw error;
  }
  return result;
}

async function offloadDay(
  deps: OffloadDeps,
  claim: string,
  batches: ClaimedBatch[],
): Promise<{ moved: number; bytes: number }> {
  const { db, store } = deps;
  // Replay reads one session's batches in (first_ts, id) order: adjacent, they merge into one read.
  batches.sort((a, b) =>
    compare(a.project_id, b.project_id) ||
    compare(a.session_external_id, b.session_external_id) || a.first_ts - b.first_ts || a.id - b.id
  );
  const data = await claimedData(db.kysely, claim, batches);
  const keys = await offloadKeys(
    db.kysely,
    store.config.keys,
    batches.map((b) => ({ project_id: b.project_id, external_id: b.session_external_id })),
  );
  const sealed = await Promise.all(batches.map((batch) => {
    const bytes = data.get(batch.id);
    const key = keys.get(sessionRef(batch.project_id, batch.session_external_id));
    if (!bytes || !key) return null; // deleted meanwhile (a session gone has no key)
    const place = { projectId: batch.project_id, sessionExternalId: batch.session_external_id };
    return sealBatch(key, { ...place, batchId: batch.id }, bytes);
  }));
  const placements: Placement[] = [];
  const parts: Uint8Array[] = [];
  let offset = 0;
  batches.forEach((batch, i) => {
    const bytes = sealed[i];
    if (!bytes) return;
    placements.push({ id: batch.id, created: batch.created, offset, length: bytes.length });
    parts.push(bytes);
    offset += bytes.length;
  });
  if (!placements.length) return { moved: 0, bytes: 0 };
  const body = new Uint8Array(offset);
  placements.forEach((p, i) => body.set(parts[i], p.offset));
  const key = store.newKey(batches[0].day);
  await recordObject(db.kysely, key, batches[0].day, offset);
  await store.put(key, body);
  if (store.seals.uploads++ % store.config.checkEvery === 0) {
    const at = Math.floor(Math.random() * placements.length);
    const batch = batches.find((b) => b.id === placements[at].id)!;
    await checkUpload(store, key, placements[at], {
      key: keys.get(sessionRef(batch.project_id, batch.session_external_id))!,
      place: { projectId: batch.project_id, sessionExternalId: batch.session_external_id },
      gzip: data.get(batch.id)!,
    });
  }
  const moved = await commitObject(db.kysely, claim, key, placements);
  if (moved === 0) {
    // Another instance took the batches after this claim expired: this object is unused.
    await store.delete(key).then(() => forgetObject(db.kysely, key)).catch(() => {});
    log.warn("storage:offload:claim_lost", { key, batches: placements.length });
    return { moved: 0, bytes: 0 };
  }
  log.debug("storage:offload:object", { key, batches: moved, bytes: offset });
  return { moved, bytes: offset };
}

function byDay(batches: ClaimedBatch[]): ClaimedBatch[][] {
  const days = new Map<string, ClaimedBatch[]>();
  for (const batch of batches) {
    const day = days.get(batch.day);
    if (day) day.push(batch);
    else days.set(batch.day, [batch]);
  }
  return [...days.values()];
}

const compare = (a: string, b: string) => a < b ? -1 : a > b ? 1 : 0;

export interface Offloader {
  /** Runs a flush now (a test, or a shutdown that wants staged batches out). */
  flush(): Promise<OffloadResult>;
  stop(): Promise<void>;
}

/** The longest wait between attempts while the store is failing. */
const MAX_BACKOFF_MS = 5 * 60_000;

/**
 * Flushes every `flushMs`, or again at once after a full slice (ingest outran one flush). A
 * failure (store down, slow, or PostgreSQL) waits twice as long each time, up to five minutes,
 * and logs `storage:offload:failed`; the batches stay staged, nothing is lost.
 */
export function startOffloader(deps: OffloadDeps): Offloader {
  const { flushMs, flushBytes } = deps.store.config;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | null = null;
  let running: Promise<OffloadResult> | null = null;
  const flush = () => running ??= offloadOnce(deps).finally(() => running = null);

  if (deps.store.config.keys.development) {
    log.warn("storage:key:development", {
      message: "EVENTS_STORE_KEY is not set: recordings are sealed under development's " +
        "well-known key (production requires EVENTS_STORE_KEY)",
    });
  }
  const loop = (async () => {
    let delay = flushMs;
    let failures = 0;
    await deps.store.ensureBucket().catch(() => {}); // retried by the first failing flush's log
    while (!stopped) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, delay);
      });
      if (stopped) break;
      try {
        const result = await flush();
        failures = 0;
        delay = result.bytes >= flushBytes / 2 || result.batches >= 4_000 ? 0 : flushMs;
      } catch (error) {
        failures++;
        delay = Math.min(flushMs * 2 ** failures, MAX_BACKOFF_MS);
        log.warn("storage:offload:failed", { error: String(error), failures, retryInMs: delay });
      }
    }
  })();

  return {
    flush,
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await loop;
      await running?.catch(() => {});
    },
  };
}
