// The daily cleanup deleted expired sessions' batches and markers row by row (FK
// cascades, TOAST included): 666 s for 1,000,000 sessions. Both tables are now partitioned by
// their session's created_at, one partition per UTC day, so the cleanup drops a whole expired day
// at once whatever its rows; sessions stay one table (ingest upserts them by (project_id,
// external_id), which a partitioned table could only enforce per partition).
//
// - session_created_at is the session's created_at, copied into each batch and marker. Unique keys
//   must hold the partition key; every batch of a session shares it, so (project_id,
//   session_external_id, digest, session_created_at) deduplicates exactly as before.
// - The foreign keys to sessions go: their cascade knows no created_at, so it would probe every
//   day's partition for each deleted session. A statement trigger on sessions deletes the rows of
//   deleted sessions instead, one index probe per session into the one partition its created_at
//   names (the default one once its day is gone).
// - Ingest reads the session's created_at for the batch's partition before its upsert, in the same
//   statement; when a concurrent request created the session meanwhile, the statement sees it
//   differ and rolls back to run again (ingest_retry), so a batch never sits under another key.
// - The cleanup's session sweep leaves 0004's tracked-user aggregates pending (tracked_user_pending)
//   and applies them once per user at its end, instead of rewriting each user per chunk.
// - A DEFAULT partition takes rows of days without a partition (old sessions in tests, a service
//   whose daily cleanup has not run); add_day_partitions() makes the days ahead, the cleanup calls it.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

/** Moves `table` aside with its sequence and index names, so the new table can take them. */
const moveAside = (table: string, indexes: string[]) => [
  `ALTER TABLE ${table} RENAME TO ${table}_unpartitioned`,
  `ALTER SEQUENCE ${table}_id_seq RENAME TO ${table}_unpartitioned_id_seq`,
  ...indexes.map((index) => `ALTER INDEX ${index} RENAME TO ${index}_unpartitioned`),
];

/** Migration 0004's statement trigger on deleted sessions, with `deferral` ahead of its update. */
const userRollupDelete = (deferral: string) => `
  CREATE OR REPLACE FUNCTION tracked_user_rollup_delete() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN${deferral}
    UPDATE tracked_users SET session_count = tracked_users.session_count - gone.n,
      active_time = tracked_users.active_time - gone.total,
      last_event_at = (SELECT max(COALESCE(s.ended_at, s.started_at)) FROM sessions s
                       WHERE s.tracked_user_id = tracked_users.id)
    FROM (SELECT tracked_user_id, count(*)::integer AS n, sum(duration)::bigint AS total
          FROM gone_sessions WHERE tracked_user_id IS NOT NULL GROUP BY tracked_user_id) gone
    WHERE tracked_users.id = gone.tracked_user_id;
    RETURN NULL;
  END $$`;

const BATCHES_KEY = "event_batches_project_id_session_external_id_digest_key";
const SESSIONS_KEY = "sessions_project_id_external_id_key";

const UP = [
  ...moveAside("event_batches", ["event_batches_pkey", BATCHES_KEY]),
  ...moveAside("markers", ["markers_pkey", "markers_session_idx"]),
  // PostgreSQL 15 has no identity columns on partitioned tables: a sequence default keeps the ids.
  `CREATE SEQUENCE event_batches_id_seq`,
  `CREATE TABLE event_batches (
     id bigint NOT NULL DEFAULT nextval('event_batches_id_seq'),
     project_id text NOT NULL,
     session_external_id text NOT NULL,
     session_created_at timestamptz NOT NULL,
     first_ts bigint NOT NULL,
     last_ts bigint NOT NULL,
     event_count integer NOT NULL,
     digest bytea NOT NULL,
     data bytea NOT NULL,
     slice_markers jsonb,
     created_at timestamptz NOT NULL DEFAULT now(),
     CONSTRAINT event_batches_pkey PRIMARY KEY (id, session_created_at),
     CONSTRAINT ${BATCHES_KEY}
       UNIQUE (project_id, session_external_id, digest, session_created_at)
       INCLUDE (first_ts, event_count)
   ) PARTITION BY RANGE (session_created_at)`,
  `ALTER SEQUENCE event_batches_id_seq OWNED BY event_batches.id`,
  // gzip data does not compress again: skip TOAST compression (partitions inherit it)
  `ALTER TABLE event_batches ALTER COLUMN data SET STORAGE EXTERNAL`,
  `CREATE SEQUENCE markers_id_seq`,
  `CREATE TABLE markers (
     id bigint NOT NULL DEFAULT nextval('markers_id_seq'),
     session_id text NOT NULL,
     session_created_at timestamptz NOT NULL,
     ts bigint NOT NULL,
     kind text NOT NULL,
     data jsonb NOT NULL,
     CONSTRAINT markers_pkey PRIMARY KEY (id, session_created_at)
   ) PARTITION BY RANGE (session_created_at)`,
  `ALTER SEQUENCE markers_id_seq OWNED BY markers.id`,
  `CREATE INDEX markers_session_idx ON markers (session_id, ts, id) INCLUDE (kind, data)`,
  `CREATE TABLE event_batches_default PARTITION OF event_batches DEFAULT`,
  `CREATE TABLE markers_default PARTITION OF markers DEFAULT`,
  `CREATE FUNCTION add_day_partitions(first_day date, last_day date) RETURNS integer
   LANGUAGE plpgsql AS $$
   DECLARE
     day date;
     parent text;
     made integer := 0;
   BEGIN
     FOR day IN SELECT generate_series(first_day, last_day, interval '1 day')::date LOOP
       FOREACH parent IN ARRAY ARRAY['event_batches', 'markers'] LOOP
         CONTINUE WHEN to_regclass(parent || '_d' || to_char(day, 'YYYYMMDD')) IS NOT NULL;
         BEGIN
           EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
             parent || '_d' || to_char(day, 'YYYYMMDD'), parent,
             day::timestamp AT TIME ZONE 'UTC', (day + 1)::timestamp AT TIME ZONE 'UTC');
           made := made + 1;
         EXCEPTION WHEN check_violation THEN
           -- the default partition already holds rows of that day: they stay there
         END;
       END LOOP;
     END LOOP;
     RETURN made;
   END $$`,
  // The day partitions wholly before \`cutoff\`: every session they hold was created before it.
  `CREATE FUNCTION expired_day_partitions(cutoff timestamptz) RETURNS SETOF text
   LANGUAGE sql STABLE AS $$
     SELECT c.relname::text FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent IN ('event_batches'::regclass, 'markers'::regclass)
       AND c.relname ~ '_d[0-9]{8}$'
       AND (to_date(right(c.relname, 8), 'YYYYMMDD') + 1)::timestamp AT TIME ZONE 'UTC' <= cutoff
     ORDER BY right(c.relname, 8), c.relname
   $$`,
  // The days the rows already there need, and the next three, before they move in.
  `SELECT add_day_partitions(
     LEAST((SELECT min(created_at) FROM sessions)::date, (now() AT TIME ZONE 'UTC')::date),
     (now() AT TIME ZONE 'UTC')::date + 3)`,
  `INSERT INTO event_batches (id, project_id, session_external_id, session_created_at, first_ts,
     last_ts, event_count, digest, data, slice_markers, created_at)
   SELECT b.id, b.project_id, b.session_external_id, s.created_at, b.first_ts, b.last_ts,
     b.event_count, b.digest, b.data, b.slice_markers, b.created_at
   FROM event_batches_unpartitioned b
   JOIN sessions s ON s.project_id = b.project_id AND s.external_id = b.session_external_id`,
  `INSERT INTO markers (id, session_id, session_created_at, ts, kind, data)
   SELECT m.id, m.session_id, s.created_at, m.ts, m.kind, m.data
   FROM markers_unpartitioned m JOIN sessions s ON s.id = m.session_id`,
  `SELECT setval('event_batches_id_seq',
     (SELECT COALESCE(max(id), 0) + 1 FROM event_batches), false)`,
  `SELECT setval('markers_id_seq', (SELECT COALESCE(max(id), 0) + 1 FROM markers), false)`,
  `DROP TABLE event_batches_unpartitioned, markers_unpartitioned`,
  // Ingest's lookup of the session's created_at is an index-only scan of the key it upserts by.
  // Without it, a plan cached while the table was small walked sessions_project_created_idx
  // over every session of the project (bench:ingest: PostgreSQL CPU per request doubled).
  `ALTER TABLE sessions DROP CONSTRAINT ${SESSIONS_KEY},
     ADD CONSTRAINT ${SESSIONS_KEY} UNIQUE (project_id, external_id) INCLUDE (created_at)`,
  // What the foreign keys' cascades did, for a whole statement: an index probe per deleted session
  // into the partition of its day, which run-time pruning picks (the default one once the day is
  // dropped). Left to itself the planner hashes every partition whole for a chunk of the cleanup
  // (230 ms per 1,000 sessions of 200,000, against 16 ms probing).
  `CREATE FUNCTION delete_session_rows() RETURNS trigger LANGUAGE plpgsql
   SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off AS $$
   BEGIN
     DELETE FROM event_batches b USING old_sessions s
     WHERE b.project_id = s.project_id AND b.session_external_id = s.external_id
       AND b.session_created_at = s.created_at;
     DELETE FROM markers m USING old_sessions s
     WHERE m.session_id = s.id AND m.session_created_at = s.created_at;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER sessions_delete_rows AFTER DELETE ON sessions
   REFERENCING OLD TABLE AS old_sessions
   FOR EACH STATEMENT EXECUTE FUNCTION delete_session_rows()`,
  // The cleanup's session sweep (and only it: it sets playhead.defer_tracked_users for its own
  // transactions) leaves 0004's per-user aggregates to be applied once per user at its end: each
  // user's sessions spread over the retained days, so updating them per chunk rewrote every user
  // ~8 times (71 ms of a 1,000-session chunk's ~120 ms). The pending deltas commit with the
  // deletes they describe, so a run cut short leaves them for the next one.
  `CREATE TABLE tracked_user_pending (
     tracked_user_id text NOT NULL,
     sessions integer NOT NULL,
     active_time bigint NOT NULL
   )`,
  `CREATE INDEX tracked_user_pending_user_idx ON tracked_user_pending (tracked_user_id)`,
  userRollupDelete(`
     IF current_setting('playhead.defer_tracked_users', true) = 'on' THEN
       INSERT INTO tracked_user_pending (tracked_user_id, sessions, active_time)
       SELECT tracked_user_id, count(*)::integer, sum(duration)::bigint
       FROM gone_sessions WHERE tracked_user_id IS NOT NULL GROUP BY tracked_user_id;
       RETURN NULL;
     END IF;`),
  // Ingest places a batch by the session's created_at as its snapshot saw it; when another
  // request created (or deleted) the session meanwhile, the statement rolls back through this and
  // runs again (db/queries/ingest/write.ts).
  `CREATE FUNCTION ingest_retry(reason text) RETURNS boolean LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION '%', reason USING ERRCODE = 'serialization_failure';
   END $$`,
];

const DOWN = [
  userRollupDelete(""),
  "DROP TABLE tracked_user_pending",
  "DROP TRIGGER sessions_delete_rows ON sessions",
  "DROP FUNCTION delete_session_rows(), add_day_partitions(date, date), ingest_retry(text)",
  "DROP FUNCTION expired_day_partitions(timestamptz)",
  `ALTER TABLE sessions DROP CONSTRAINT ${SESSIONS_KEY},
     ADD CONSTRAINT ${SESSIONS_KEY} UNIQUE (project_id, external_id)`,
  ...moveAside("event_batches", ["event_batches_pkey", BATCHES_KEY]),
  ...moveAside("markers", ["markers_pkey", "markers_session_idx"]),
  `CREATE TABLE event_batches (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     project_id text NOT NULL,
     session_external_id text NOT NULL,
     first_ts bigint NOT NULL,
     last_ts bigint NOT NULL,
     event_count integer NOT NULL,
     digest bytea NOT NULL,
     data bytea NOT NULL,
     slice_markers jsonb,
     created_at timestamptz NOT NULL DEFAULT now(),
     FOREIGN KEY (project_id, session_external_id)
       REFERENCES sessions (project_id, external_id) ON DELETE CASCADE,
     CONSTRAINT ${BATCHES_KEY}
       UNIQUE (project_id, session_external_id, digest) INCLUDE (first_ts, event_count)
   )`,
  `ALTER TABLE event_batches ALTER COLUMN data SET STORAGE EXTERNAL`,
  `CREATE TABLE markers (
     id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     ts bigint NOT NULL,
     kind text NOT NULL,
     data jsonb NOT NULL
   )`,
  `CREATE INDEX markers_session_idx ON markers (session_id, ts, id) INCLUDE (kind, data)`,
  `INSERT INTO event_batches (id, project_id, session_external_id, first_ts, last_ts, event_count,
     digest, data, slice_markers, created_at)
   SELECT id, project_id, session_external_id, first_ts, last_ts, event_count, digest, data,
     slice_markers, created_at
   FROM event_batches_unpartitioned`,
  `INSERT INTO markers (id, session_id, ts, kind, data)
   SELECT id, session_id, ts, kind, data FROM markers_unpartitioned`,
  `SELECT setval('event_batches_id_seq',
     (SELECT COALESCE(max(id), 0) + 1 FROM event_batches), false)`,
  `SELECT setval('markers_id_seq', (SELECT COALESCE(max(id), 0) + 1 FROM markers), false)`,
  `DROP TABLE event_batches_unpartitioned, markers_unpartitioned`,
];
