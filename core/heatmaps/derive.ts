// The heatmaps' background step (docs/decisions.md "Heatmaps"): claims queued sessions (a stored
// batch queues its session, migration 0040), reads each one's stored batches in replay order
// (core/sessions/detail.ts, the replay's own read: the object store and sealed batches included)
// and hands them to the derive worker (./derive_pool.ts), which reads its clicks and scrolls
// (./share_reader.ts) up to DERIVE_BOUNDS; the session's share of the maps is replaced with what
// comes back. Run each minute (./schedule.ts); the queue is where it stands, so a crash or a
// restart resumes, and the sessions stored before heatmaps existed are in it (the backfill).
import type { AppDeps } from "@/core/deps.ts";
import { log } from "@/log.ts";
import { findSession } from "@/db/queries/sessions/detail.ts";
import { claimDue, finishQueued, queuedSession } from "@/db/queries/heatmaps/queue.ts";
import { replaceSessionShare } from "@/db/queries/heatmaps/write.ts";
import { storedBatches } from "@/core/sessions/detail.ts";
import { DERIVE_POOL, DerivePool, DeriveWorkerEnded } from "./derive_pool.ts";
import { type BatchRead, DERIVE_BOUNDS, type DeriveBounds } from "./share_reader.ts";

type Deps = Pick<AppDeps, "db"> & Partial<Pick<AppDeps, "store" | "opens" | "workers">>;

/** How long a claimed session is one instance's before another may take it. */
const LEASE_MS = 5 * 60_000;
/** Sessions claimed at a time: each claim's lease covers only what is derived soon after it. */
const CLAIM = 20;
/** Sessions per run at most. */
export const SESSIONS_PER_RUN = 1000;
/** A scheduled run stops claiming after this long, before the next minute's run is due. */
export const RUN_BUDGET_MS = 45_000;

export interface DeriveResult {
  sessions: number;
  clicks: number;
  failed: number;
  /** Sessions past DERIVE_BOUNDS: their first batches made their share. */
  truncated: number;
}

/**
 * Derives the due sessions (`now` decides which are due), CLAIM at a time, up to `limit` of them
 * and while the run is within `budgetMs`.
 */
export async function deriveHeatmaps(
  deps: Deps,
  now = new Date(),
  limit = SESSIONS_PER_RUN,
  budgetMs = Infinity,
  clock: () => number = () => performance.now(),
  bounds: DeriveBounds = DERIVE_BOUNDS,
): Promise<DeriveResult> {
  const db = deps.db.kysely;
  const started = clock();
  const out: DeriveResult = { sessions: 0, clicks: 0, failed: 0, truncated: 0 };
  // without the app's pools (a script's deps), the pool of this run, ended with it
  const own = deps.workers ? null : new DerivePool();
  const pool = deps.workers?.get(DERIVE_POOL, () => new DerivePool()) ?? own!;
  try {
    await run();
  } finally {
    own?.close();
  }
  return out;

  async function run() {
    while (out.sessions + out.failed < limit && clock() - started < budgetMs) {
      const lease = new Date(now.getTime() + LEASE_MS);
      const left = limit - out.sessions - out.failed;
      const claimed = await claimDue(db, now, lease, Math.min(CLAIM, left));
      if (!claimed.length) break;
      for (const queued of claimed) {
        try {
          const done = await deriveSession(deps, pool, queued, bounds);
          out.clicks += done.clicks;
          if (done.truncated) out.truncated++;
          out.sessions++;
        } catch (error) {
          out.failed++;
          log.warn("heatmaps:derive:failed", {
            projectId: queued.project_id,
            error: error instanceof Error ? error.message : String(error),
          });
          // The worker ended under it: left queued, claimed again once its lease ends.
          if (error instanceof DeriveWorkerEnded) continue;
        }
        // A batch that cannot be read leaves the session's share as it was; it is not tried again
        // until a batch arrives (its error is the replay's too).
        await finishQueued(db, queued);
      }
    }
  }
}

/** Derives one queued session's share: the clicks read, and whether it passed the bounds. */
async function deriveSession(
  deps: Deps,
  pool: DerivePool,
  queued: { project_id: string; session_external_id: string },
  bounds: DeriveBounds,
): Promise<{ clicks: number; truncated: boolean }> {
  const db = deps.db.kysely;
  const found = await queuedSession(db, queued);
  if (!found) return { clicks: 0, truncated: false }; // erased or deleted since its batch
  const session = await findSession(db, found.organization_id, found.id);
  if (!session) return { clicks: 0, truncated: false };
  const job = pool.begin(bounds);
  let truncated = false, batches = 0;
  let full: BatchRead | null = null;
  for await (const { bytes } of await storedBatches(deps, session)) {
    if (!bytes) continue; // a missing object: the replay skips it too
    if (full) {
      // a batch past the bound: it and the rest are not read, and the log says so
      truncated = true;
      log.warn("heatmaps:derive:truncated", {
        projectId: session.project_id,
        batches,
        events: full.events,
        bytes: full.bytes,
      });
      break;
    }
    const read = await job.push(bytes);
    batches++;
    if (read.full) full = read;
  }
  const { share, clicks } = await job.finish();
  await replaceSessionShare(db, { id: session.id, projectId: session.project_id }, share);
  return { clicks, truncated };
}
