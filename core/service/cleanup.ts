// The daily cleanup (docs/decisions.md "Cleanup"): four ordered sweeps in bounded chunks under an
// advisory lock, shared by GET /api/cron/daily-cleanup and the scheduled job (cleanup_schedule.ts).
import type { Kysely } from "kysely";
import type { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  analyzePendingTrackedUsers,
  applyPendingTrackedUsers,
  claimScheduledRun,
  deleteEmptyOrganizations,
  deleteLonelyTrackedUsers,
  deleteOldSessions,
  deleteStaleInvites,
  pinnedDays,
  releaseCleanupLock,
  releaseScheduledRun,
  retentionRange,
  tryCleanupLock,
} from "@/db/queries/service/cleanup.ts";
import type { Database } from "@/db/schema.ts";
import { log } from "@/log.ts";
import { sweepAuthLeftovers } from "@/core/auth/cleanup.ts";
import { sweepAuditLog } from "@/core/audit/retention.ts";
import {
  addDayPartitions,
  dropDayPartition,
  expiredDayPartitions,
} from "@/db/queries/service/partitions.ts";
import { compactRollups, deleteExpiredSignalRollups } from "@/db/queries/service/rollups.ts";
import { chunked, chunkedByKey } from "@/core/chunked.ts";
import { sparedOrganizations } from "./playground.ts";
import type { ObjectStore } from "@/db/object_store.ts";
import { sweepStore } from "@/core/storage/sweep.ts";
import { TOMBSTONE_MS } from "@/core/sessions/erase.ts";
import { sweepTombstones } from "@/db/queries/sessions/erase.ts";
import type { cleanupResult } from "./schema.ts";

const DAY_MS = 86_400_000;
/** Rows per statement; a session also cascades its batches and markers, so it takes fewer. */
export const CHUNK_ROWS = 5_000;
export const SESSION_CHUNK_ROWS = 1_000;
/**
 * Tracked users and organizations younger than this are left for the next run: an ingest that is
 * identifying a user, or an organization being set up, may not have committed its first session
 * or membership yet.
 */
export const SETTLE_MS = 10 * 60_000;
/** Tracked users whose pending aggregates one statement applies. */
const PENDING_USERS_PER_STATEMENT = 1_000;
/** Day partitions made ahead of today, so a missed daily run or two still finds them. */
const PARTITION_DAYS_AHEAD = 3;
/** How long dropping a day partition may wait for the tables' lock before leaving it whole. */
const PARTITION_LOCK_TIMEOUT_MS = 2_000;
/** The summary rollups' shards are folded for hours older than this (the live ones stay split). */
const ROLLUP_SETTLE_MS = 3_600_000;

/** Rows deleted by each sweep; `skipped` when another run held the lock and this one did nothing. */
export type CleanupResult = z.output<typeof cleanupResult>;
export type CleanupCounts = Omit<CleanupResult, "skipped">;

// PGlite is one session in this process, where advisory locks are re-entrant: guard in memory too.
const running = new WeakSet<object>();

export interface CleanupOptions {
  trigger?: "http" | "cron";
  /** Overrides both chunk sizes (tests prove the chunk loop with small ones). */
  chunkRows?: number;
  /** Overrides how old an uncommitted object must be to count as an orphan (tests). */
  orphanAgeMs?: number;
}

export async function runCleanup(
  deps: Pick<AppDeps, "config" | "db"> & Partial<Pick<AppDeps, "store">>,
  now: Date,
  options: CleanupOptions = {},
): Promise<CleanupResult> {
  const trigger = options.trigger ?? "http";
  const db = deps.db;
  const idle = { invites: 0, sessions: 0, trackedUsers: 0, organizations: 0 };
  const spared = sparedOrganizations(deps.config);
  if (running.has(db)) return skipped(trigger, idle, "another run holds the lock");
  running.add(db);
  try {
    // On PostgreSQL the lock belongs to one pooled connection, so the whole run stays on it;
    // PGlite has a single connection anyway, and pinning it would stall every other request.
    const store = deps.store ?? null;
    const run = (conn: Kysely<Database>) => locked(conn, now, { ...options, spared, store }, idle);
    if (db.kind === "pglite") return await run(db.kysely);
    return await db.kysely.connection().execute(run);
  } finally {
    running.delete(db);
  }
}

async function locked(
  db: Kysely<Database>,
  now: Date,
  options: CleanupOptions & { spared: string[]; store: ObjectStore | null },
  idle: CleanupCounts,
): Promise<CleanupResult> {
  const trigger = options.trigger ?? "http";
  if (!await tryCleanupLock(db)) return skipped(trigger, idle, "another run holds the lock");
  try {
    // Every instance's cron fires at 03:30: the lock keeps them from sweeping at once, the day's
    // claim from sweeping again once the first is done. Asked for over HTTP, it always runs.
    const day = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
    if (trigger === "cron" && !await claimScheduledRun(db, day)) {
      return skipped(trigger, idle, "today's scheduled run is done");
    }
    return await sweepAll(db, now, options).catch(async (error) => {
      if (trigger === "cron") await releaseScheduledRun(db, day);
      throw error;
    });
  } finally {
    await releaseCleanupLock(db);
  }
}

/** The sweeps themselves, under the lock. */
async function sweepAll(
  db: Kysely<Database>,
  now: Date,
  options: CleanupOptions & { spared: string[]; store: ObjectStore | null },
): Promise<CleanupResult> {
  const trigger = options.trigger ?? "http";
  log.info("cron:cleanup:start", { trigger, now: now.toISOString() });
  const started = performance.now();
  const counts = await sweep(db, now, options.chunkRows, options.spared);
  // Not one of the four counts the endpoint answers: logged, not returned.
  const auth = await sweepAuthLeftovers(db, now, options.chunkRows ?? CHUNK_ROWS);
  const auditRows = await sweepAuditLog(db, now, options.chunkRows ?? CHUNK_ROWS);
  const tombstones = await sweepTombstones(db, new Date(now.getTime() - TOMBSTONE_MS));
  await compactRollups(db, new Date(now.getTime() - ROLLUP_SETTLE_MS));
  // After the session sweep: the expired days' sessions are gone, so their objects can go.
  // A store that is down leaves its part for the next run; the database's part is done.
  const { longest } = await retentionRange(db);
  const store = options.store
    ? await sweepStore(db, options.store, now, longest * DAY_MS, options.orphanAgeMs).catch(
      (error) => void log.error("storage:sweep:failed", { error: String(error) }),
    )
    : null;
  log.info("cron:cleanup:summary", {
    trigger,
    ...counts,
    ...auth,
    auditRows,
    tombstones,
    ...(store ? { store } : {}),
    durationMs: Math.round(performance.now() - started),
  });
  return { ...counts, skipped: false };
}

/**
 * The four sweeps in their order (invites, sessions, tracked users, organizations): tracked users
 * emptied by the session sweep go too.
 */
async function sweep(
  db: Kysely<Database>,
  now: Date,
  chunkRows: number | undefined,
  spared: string[],
): Promise<CleanupCounts> {
  const settled = new Date(now.getTime() - SETTLE_MS);
  const rows = chunkRows ?? CHUNK_ROWS;
  return {
    invites: await chunked(rows, (n) => deleteStaleInvites(db, now, n)),
    sessions: await sweepSessions(db, now, chunkRows ?? SESSION_CHUNK_ROWS),
    trackedUsers: await chunked(rows, (n) => deleteLonelyTrackedUsers(db, settled, n)),
    organizations: await chunked(rows, (n) => deleteEmptyOrganizations(db, settled, n, spared)),
  };
}

/**
 * Expired days go first, whole: their partitions of batches and markers (migration 0012), which
 * costs the same whatever they hold, once past the longest retention in use and holding no pinned
 * session. Then the sessions past their own project's retention (pinned ones stay), in chunks;
 * their delete trigger finds the rows of the days not dropped one probe each, and their tracked
 * users' aggregates wait until the end, when each user is updated once. The insights' signal
 * rollups of the hours past the longest retention go with them (a dropped partition fires no
 * trigger). The days ahead are made here too, so ingest always has a partition for today.
 */
async function sweepSessions(db: Kysely<Database>, now: Date, chunkRows: number): Promise<number> {
  const { shortest, longest } = await retentionRange(db);
  const cutoff = new Date(now.getTime() - longest * DAY_MS);
  await addDayPartitions(db, now, new Date(now.getTime() + PARTITION_DAYS_AHEAD * DAY_MS));
  const dropped: string[] = [];
  const kept: string[] = [];
  const pinned = await pinnedDays(db, cutoff);
  for (const name of await expiredDayPartitions(db, cutoff)) {
    if (pinned.has(name.slice(-8))) continue; // its pinned sessions' batches and markers stay
    const gone = await dropDayPartition(db, name, PARTITION_LOCK_TIMEOUT_MS);
    (gone ? dropped : kept).push(name);
  }
  if (dropped.length || kept.length) log.info("cron:cleanup:partitions", { dropped, kept });
  const bound = new Date(now.getTime() - shortest * DAY_MS);
  const deleted = await deleteExpiredSessions(db, now, bound, chunkRows);
  await deleteExpiredSignalRollups(db, cutoff);
  await applyPending(db);
  return deleted;
}

/**
 * Each chunk starts at the newest `created_at` of the one before (a chunk starting from the oldest
 * would walk every deleted row's index entry again: by the last of 1,000 chunks, ~11 ms more each).
 * A last pass from the oldest takes what ingest held (SKIP LOCKED) behind that point.
 */
async function deleteExpiredSessions(
  db: Kysely<Database>,
  now: Date,
  bound: Date,
  chunkRows: number,
): Promise<number> {
  const inOrder = await chunkedByKey<string | null>(chunkRows, null, async (from, n) => {
    const { deleted, last } = await deleteOldSessions(db, now, bound, n, from);
    return { count: deleted, last };
  });
  const behind = (n: number) => deleteOldSessions(db, now, bound, n).then((chunk) => chunk.deleted);
  return inOrder + await chunked(chunkRows, behind);
}

/** The tracked users' pending aggregates, each user once, in id order (also a cut-short run's). */
async function applyPending(db: Kysely<Database>): Promise<void> {
  await analyzePendingTrackedUsers(db);
  await chunkedByKey(PENDING_USERS_PER_STATEMENT, "", async (after, n) => {
    const { applied, last } = await applyPendingTrackedUsers(db, after, n);
    return { count: applied, last };
  });
}

function skipped(trigger: string, idle: CleanupCounts, reason: string): CleanupResult {
  log.info("cron:cleanup:skipped", { trigger, reason });
  return { ...idle, skipped: true };
}
