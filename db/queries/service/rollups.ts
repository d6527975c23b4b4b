// The summary rollups of migration 0007: folding the per-backend shards of past hours into one row
// each (so a summary reads one row per project, hour and end day however many backends wrote
// it), and recomputing them whole.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

/** Compacts the rollup rows of hours before `before` (the current hour keeps its shards). */
export async function compactRollups(db: Kysely<Database>, before: Date): Promise<void> {
  await sql`SELECT compact_rollups(${before})`.execute(db);
}

/**
 * The rollups recomputed from the sessions and tracked users, for loads that bypass the triggers
 * (the query benchmark's seed runs with `session_replication_role = replica`).
 */
export const REBUILD_ROLLUPS = [
  "TRUNCATE session_rollups, tracked_user_rollups",
  `INSERT INTO session_rollups
     (organization_id, created_hour, project_id, ended_day, shard, sessions, duration)
   SELECT organization_id, date_trunc('hour', created_at, 'UTC'), project_id,
     COALESCE(date_trunc('day', ended_at, 'UTC'), 'infinity'), 0, count(*), sum(duration)
   FROM sessions GROUP BY 1, 2, 3, 4`,
  `INSERT INTO tracked_user_rollups (organization_id, kind, hour, project_id, shard, users)
   SELECT organization_id, 'created', date_trunc('hour', created_at, 'UTC'), project_id, 0, count(*)
   FROM tracked_users GROUP BY 1, 3, 4
   UNION ALL
   SELECT organization_id, 'last_seen',
     date_trunc('hour', COALESCE(last_event_at, '-infinity'), 'UTC'), project_id, 0, count(*)
   FROM tracked_users GROUP BY 1, 3, 4`,
];

export async function rebuildRollups(db: Kysely<Database>): Promise<void> {
  for (const statement of REBUILD_ROLLUPS) await sql.raw(statement).execute(db);
}

/**
 * Drops the signal rollups (migration 0017) of sessions created before `cutoff`: whole days
 * before it (the sessions of its own day took their counts back when they were deleted), and
 * users whose newest such session is gone.
 */
export async function deleteExpiredSignalRollups(
  db: Kysely<Database>,
  cutoff: Date,
): Promise<void> {
  await sql`DELETE FROM signal_rollups
    WHERE created_day < (${cutoff}::timestamptz AT TIME ZONE 'UTC')::date`.execute(db);
  await sql`DELETE FROM signal_users WHERE last_created_at < ${cutoff}`.execute(db);
}
