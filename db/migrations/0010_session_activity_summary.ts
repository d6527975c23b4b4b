// A tracked user's activity read two index probes per session in its window (url
// markers, batches), 10,000 probes for a user with 5,000 sessions. What activity needs of them now
// rides on the session row, so the read is one range over sessions_tracked_user_* and arithmetic
// on arrays:
// - url_ts / url_pathnames: the session's url markers (ts, data->>'pathname'), in (ts, id) order;
// - batch_ts / batch_events: first_ts and event_count of each stored batch, in arrival order.
// Ingest's session upsert appends to them in the same statement that stores the batch or marker,
// under the session's row lock, so they never disagree with the rows; a relink (identify) moves
// them with the session for free. session_activity_rebuild(ids) recomputes them from the rows
// (this backfill, the benchmark's seed, test factories that insert rows directly); NULL: all.
// Only columns, so a later partitioning of sessions (tried on branch `retention`) carries them over.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE sessions
    ADD COLUMN url_ts bigint[] NOT NULL DEFAULT '{}',
    ADD COLUMN url_pathnames text[] NOT NULL DEFAULT '{}',
    ADD COLUMN batch_ts bigint[] NOT NULL DEFAULT '{}',
    ADD COLUMN batch_events integer[] NOT NULL DEFAULT '{}'`.execute(db);
  await sql.raw(REBUILD).execute(db);
  // The backfill changes no rolled-up column: 0007's statement trigger would only cancel 2 × the
  // table's rows of deltas out (ADD COLUMN already holds the table's exclusive lock).
  await sql`ALTER TABLE sessions DISABLE TRIGGER sessions_summary_update`.execute(db);
  await sql`SELECT session_activity_rebuild(NULL)`.execute(db);
  await sql`ALTER TABLE sessions ENABLE TRIGGER sessions_summary_update`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP FUNCTION session_activity_rebuild(text[])`.execute(db);
  await sql`ALTER TABLE sessions DROP COLUMN url_ts, DROP COLUMN url_pathnames,
    DROP COLUMN batch_ts, DROP COLUMN batch_events`.execute(db);
}

/**
 * Recomputes the summary of the sessions `ids` (NULL: every session) from their rows; returns the
 * number of sessions. Set-based: one pass over markers and batches when rebuilding all (the
 * backfill, the benchmark's seed), index probes when given ids (custom plans fold `ids IS NULL`).
 */
const REBUILD = `CREATE FUNCTION session_activity_rebuild(ids text[]) RETURNS integer
  LANGUAGE plpgsql AS $$
  DECLARE n integer;
  BEGIN
    UPDATE sessions s SET url_ts = COALESCE(mk.ts, '{}'),
      url_pathnames = COALESCE(mk.pathnames, '{}'), batch_ts = COALESCE(b.ts, '{}'),
      batch_events = COALESCE(b.events, '{}')
    FROM sessions s2
    LEFT JOIN (
      SELECT m.session_id, array_agg(m.ts ORDER BY m.ts, m.id) AS ts,
        array_agg(m.data ->> 'pathname' ORDER BY m.ts, m.id) AS pathnames
      FROM markers m
      WHERE m.kind = 'url' AND (ids IS NULL OR m.session_id = ANY(ids))
      GROUP BY m.session_id
    ) mk ON mk.session_id = s2.id
    LEFT JOIN (
      SELECT b.project_id, b.session_external_id, array_agg(b.first_ts ORDER BY b.id) AS ts,
        array_agg(b.event_count ORDER BY b.id) AS events
      FROM event_batches b
      WHERE ids IS NULL OR (b.project_id, b.session_external_id) IN
        (SELECT project_id, external_id FROM sessions WHERE id = ANY(ids))
      GROUP BY b.project_id, b.session_external_id
    ) b ON b.project_id = s2.project_id AND b.session_external_id = s2.external_id
    WHERE s2.id = s.id AND (ids IS NULL OR s.id = ANY(ids));
    GET DIAGNOSTICS n = ROW_COUNT;
    RETURN n;
  END $$`;
