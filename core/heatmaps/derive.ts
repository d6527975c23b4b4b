// The heatmaps' background step (docs/decisions.md "Heatmaps"): claims queued sessions (a stored
// batch queues its session, migration 0040), reads each one's stored batches in replay order
// (core/sessions/detail.ts, the replay's own read: the object store and sealed batches included),
// derives its clicks and scrolls (recording/model/page_clicks.ts) and replaces the session's
// share of the maps. Run each minute (./schedule.ts); the queue is where it stands, so a crash or
// a restart resumes, and the sessions stored before heatmaps existed are in it (the backfill).
import type { AppDeps } from "@/core/deps.ts";
import { log } from "@/log.ts";
import { findSession } from "@/db/queries/sessions/detail.ts";
import { claimDue, finishQueued, queuedSession } from "@/db/queries/heatmaps/queue.ts";
import { replaceSessionShare } from "@/db/queries/heatmaps/write.ts";
import { wholeBatchEvents } from "@/recording/model/batch_events.ts";
import { PageClicks } from "@/recording/model/page_clicks.ts";
import { storedBatches } from "@/core/sessions/detail.ts";
import { heatmapRows } from "./rollup.ts";

type Deps = Pick<AppDeps, "db"> & Partial<Pick<AppDeps, "store" | "opens">>;

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
): Promise<DeriveResult> {
  const db = deps.db.kysely;
  const started = clock();
  const out: DeriveResult = { sessions: 0, clicks: 0, failed: 0 };
  while (out.sessions + out.failed < limit && clock() - started < budgetMs) {
    const lease = new Date(now.getTime() + LEASE_MS);
    const left = limit - out.sessions - out.failed;
    const claimed = await claimDue(db, now, lease, Math.min(CLAIM, left));
    if (!claimed.length) break;
    for (const queued of claimed) {
      try {
        out.clicks += await deriveSession(deps, queued);
        out.sessions++;
      } catch (error) {
        // A batch that cannot be read leaves the session's share as it was; it is not tried again
        // until a batch arrives (its error is the replay's too).
        out.failed++;
        log.warn("heatmaps:derive:failed", {
          projectId: queued.project_id,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      await finishQueued(db, queued);
    }
  }
  return out;
}

/** Derives one queued session's share; the clicks read. */
async function deriveSession(
  deps: Deps,
  queued: { project_id: string; session_external_id: string },
): Promise<number> {
  const db = deps.db.kysely;
  const found = await queuedSession(db, queued);
  if (!found) return 0; // erased or deleted since its batch
  const session = await findSession(db, found.organization_id, found.id);
  if (!session) return 0;
  const reader = new PageClicks();
  for await (const { bytes } of await storedBatches(deps, session)) {
    if (!bytes) continue; // a missing object: the replay skips it too
    for await (const event of wholeBatchEvents([bytes])) reader.push(event);
    await new Promise((resolve) => setTimeout(resolve, 0)); // other requests between batches
  }
  await replaceSessionShare(
    db,
    { id: session.id, projectId: session.project_id },
    heatmapRows(reader),
  );
  return reader.clicks.length;
}
