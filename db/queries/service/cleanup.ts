// The daily cleanup's statements (docs/decisions.md "Cleanup"). Each deletes at most `limit` rows
// so no statement holds locks long enough to stall ingest; callers repeat until a chunk
// comes back short. Cascades (batches, markers, invites, projects) follow the foreign keys.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;

/** Tries the session-level advisory lock that keeps two instances from sweeping at once. */
export async function tryCleanupLock(db: Db): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    SELECT pg_try_advisory_lock(hashtext('playhead:daily-cleanup')) AS locked`.execute(db);
  return rows[0].locked;
}

export async function releaseCleanupLock(db: Db): Promise<void> {
  await sql`SELECT pg_advisory_unlock(hashtext('playhead:daily-cleanup'))`.execute(db);
}

/**
 * Claims the scheduled run of the UTC day starting at `day`: a throttle bucket of one hit a day,
 * so an instance whose cron fires after another's run has finished does not sweep again.
 */
export async function claimScheduledRun(db: Db, day: Date): Promise<boolean> {
  const { rows } = await sql<{ claimed: boolean }>`
    INSERT INTO rate_limit_counters (bucket, window_start, count)
    VALUES (${SCHEDULED_RUN_BUCKET}, ${day}, 1)
    ON CONFLICT (bucket, window_start) DO NOTHING
    RETURNING true AS claimed`.execute(db);
  return rows.length === 1;
}

/** Gives the day's claim back (a run that failed), so a later firing that day can sweep. */
export async function releaseScheduledRun(db: Db, day: Date): Promise<void> {
  await db.deleteFrom("rate_limit_counters").where("bucket", "=", SCHEDULED_RUN_BUCKET)
    .where("window_start", "=", day).execute();
}

const SCHEDULED_RUN_BUCKET = "cron:daily-cleanup";

/** Invites past expiry while PENDING or EXPIRED, and every ACCEPTED or DECLINED one. */
export async function deleteStaleInvites(db: Db, now: Date, limit: number): Promise<number> {
  const result = await db.deleteFrom("invites").where(
    "id",
    "in",
    (eb) =>
      eb.selectFrom("invites").select("id").where((w) =>
        w.or([
          w.and([w("status", "in", ["PENDING", "EXPIRED"]), w("expires_at", "<", now)]),
          w("status", "in", ["ACCEPTED", "DECLINED"]),
        ])
      ).limit(limit),
  ).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes up to `limit` sessions past their own project's retention at `now` (`retention_days`,
 * migration 0036), pinned ones excepted, oldest first from `from`; none newer than `bound` (the
 * shortest retention in use: the index scan stops there). Rows ingest holds right now are left
 * for the next chunk; their tracked users' aggregates are left pending (migration 0012) for
 * `applyPendingTrackedUsers`. Returns how many went and the newest one's `created_at` (as
 * PostgreSQL's text), where the next chunk starts.
 */
export async function deleteOldSessions(
  db: Db,
  now: Date,
  bound: Date,
  limit: number,
  from: string | null = null,
): Promise<{ deleted: number; last: string | null }> {
  // The flag holds for this statement's own transaction, where its delete trigger reads it; the
  // chunk is picked and deleted by row address: the same statement locks the rows, so none moves.
  // Its commit does not wait for the disk: a crash may bring back the last chunks' sessions (with
  // their pending deltas: one transaction), and the next run deletes them again.
  const { rows } = await sql<{ deleted: number; last: string | null }>`
    WITH deferred AS MATERIALIZED (
      SELECT set_config('playhead.defer_tracked_users', 'on', true) AS flag,
        set_config('synchronous_commit', 'off', true) AS lazy_commit
    ),
    gone AS (
      DELETE FROM sessions
      WHERE ctid = ANY(ARRAY(
          SELECT s.ctid FROM sessions s JOIN projects p ON p.id = s.project_id
          WHERE s.created_at < ${bound}
            AND s.created_at >= COALESCE(${from}::timestamptz, '-infinity')
            AND s.created_at < ${now}::timestamptz - make_interval(days => p.retention_days)
            AND s.pinned_at IS NULL
          ORDER BY s.created_at LIMIT ${limit} FOR UPDATE OF s SKIP LOCKED))
        AND (SELECT flag FROM deferred) = 'on'
      RETURNING created_at
    )
    SELECT count(*)::integer AS deleted, max(created_at)::text AS last FROM gone`.execute(db);
  return rows[0];
}

/** The shortest and longest retention of any project, in days (7 each without projects). */
export async function retentionRange(db: Db): Promise<{ shortest: number; longest: number }> {
  const row = await db.selectFrom("projects")
    .select((eb) => [
      eb.fn.min<number | null>("retention_days").as("shortest"),
      eb.fn.max<number | null>("retention_days").as("longest"),
    ]).executeTakeFirst();
  return { shortest: row?.shortest ?? 7, longest: row?.longest ?? 7 };
}

/** The UTC days (YYYYMMDD) before `before` that hold a pinned session: their partitions stay. */
export async function pinnedDays(db: Db, before: Date): Promise<Set<string>> {
  const { rows } = await sql<{ day: string }>`
    SELECT DISTINCT to_char(created_at AT TIME ZONE 'UTC', 'YYYYMMDD') AS day FROM sessions
    WHERE pinned_at IS NOT NULL AND created_at < ${before}`.execute(db);
  return new Set(rows.map((r) => r.day));
}

/**
 * Refreshes the pending deltas' statistics: the sweep has just written them, and without
 * statistics the planner reads the whole table in every statement of `applyPendingTrackedUsers`
 * instead of walking its index.
 */
export async function analyzePendingTrackedUsers(db: Db): Promise<void> {
  await sql`ANALYZE tracked_user_pending`.execute(db);
}

/**
 * Applies the pending aggregates of up to `limit` tracked users whose ids sort after `after`
 * (what migration 0004's trigger does per statement: counts, active time, last event). Returns
 * how many users it updated and the last one's id, where the next statement starts: the index's
 * entries of the rows already applied are dead until a vacuum, and each statement would walk them
 * again from the start.
 */
export async function applyPendingTrackedUsers(
  db: Db,
  after: string,
  limit: number,
): Promise<{ applied: number; last: string | null }> {
  const { rows } = await sql<{ applied: number; last: string | null }>`
    WITH picked AS (
      SELECT DISTINCT tracked_user_id FROM tracked_user_pending
      WHERE tracked_user_id > ${after} ORDER BY 1 LIMIT ${limit}
    ),
    taken AS (
      DELETE FROM tracked_user_pending p USING picked
      WHERE p.tracked_user_id = picked.tracked_user_id
      RETURNING p.tracked_user_id, p.sessions, p.active_time
    ),
    applied AS (
      UPDATE tracked_users SET session_count = tracked_users.session_count - gone.n,
        active_time = tracked_users.active_time - gone.total,
        last_event_at = (SELECT max(COALESCE(s.ended_at, s.started_at)) FROM sessions s
                         WHERE s.tracked_user_id = tracked_users.id)
      FROM (SELECT tracked_user_id, sum(sessions)::integer AS n, sum(active_time)::bigint AS total
            FROM taken GROUP BY tracked_user_id) gone
      WHERE tracked_users.id = gone.tracked_user_id
      RETURNING 1
    )
    SELECT count(*)::integer AS applied, max(tracked_user_id) AS last FROM picked`.execute(db);
  return rows[0];
}

/** Tracked users without sessions, untouched since `settledBefore` (see core/service/cleanup.ts). */
export async function deleteLonelyTrackedUsers(
  db: Db,
  settledBefore: Date,
  limit: number,
): Promise<number> {
  const result = await db.deleteFrom("tracked_users").where(
    "id",
    "in",
    (eb) =>
      eb.selectFrom("tracked_users as t").select("t.id")
        .where("t.updated_at", "<", settledBefore)
        .where(({ not, exists, selectFrom }) =>
          not(exists(
            selectFrom("sessions").select(sql.lit(1).as("one")).whereRef(
              "sessions.tracked_user_id",
              "=",
              "t.id",
            ),
          ))
        )
        .limit(limit),
  ).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Organizations without memberships created before `settledBefore`, except the `spared` ones.
 * The users pointing at them lose their active organization first, in the same statement.
 */
export async function deleteEmptyOrganizations(
  db: Db,
  settledBefore: Date,
  limit: number,
  spared: string[] = [],
): Promise<number> {
  // `<> ALL('{}')` is true, so an empty list spares nothing.
  const { rows } = await sql<{ deleted: number }>`
    WITH doomed AS (
      SELECT o.id FROM organizations o
      WHERE o.created_at < ${settledBefore}
        AND o.id <> ALL(${spared}::text[])
        AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.organization_id = o.id)
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ),
    -- a data-modifying CTE runs even unreferenced; the FK's SET NULL is only the safety net
    unpointed AS (
      UPDATE users SET active_organization_id = NULL, updated_at = now()
      WHERE active_organization_id IN (SELECT id FROM doomed)
      RETURNING 1
    ),
    gone AS (
      DELETE FROM organizations WHERE id IN (SELECT id FROM doomed)
      RETURNING 1
    )
    SELECT count(*)::integer AS deleted FROM gone
  `.execute(db);
  return rows[0].deleted;
}
