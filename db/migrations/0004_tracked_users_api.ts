// Tracked-user rollups for the users list (docs/decisions.md "Tracked users"): last_event_at,
// session_count and active_time live on tracked_users, kept by triggers on sessions, so every sort
// and status filter of the list is an index range over 100,000 users instead of an aggregate over
// 1,000,000 sessions. Triggers (not the ingest statement) so deletes, relinks and cleanup keep them
// too.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

const DOWN = [
  "DROP TRIGGER sessions_rollup_insert ON sessions",
  "DROP TRIGGER sessions_rollup_update ON sessions",
  "DROP TRIGGER sessions_rollup_delete ON sessions",
  "DROP FUNCTION tracked_user_rollup_row(), tracked_user_rollup_delete()",
  "DROP FUNCTION tracked_user_refresh_last_event(text)",
  "DROP INDEX sessions_tracked_user_last_event_idx, sessions_tracked_user_created_idx",
  `ALTER TABLE tracked_users DROP COLUMN last_event_at, DROP COLUMN session_count,
     DROP COLUMN active_time`,
];

const STATEMENTS = [
  // last_event_at: the latest session end (its start while it has none); null without sessions.
  // active_time: the sum of the user's session durations (retention keeps 7 days of sessions).
  `ALTER TABLE tracked_users
     ADD COLUMN last_event_at timestamptz,
     ADD COLUMN session_count integer NOT NULL DEFAULT 0,
     ADD COLUMN active_time bigint NOT NULL DEFAULT 0`,
  `UPDATE tracked_users SET last_event_at = agg.last_event_at, session_count = agg.n,
     active_time = agg.total
   FROM (SELECT tracked_user_id, max(COALESCE(ended_at, started_at)) AS last_event_at,
           count(*)::integer AS n, sum(duration)::bigint AS total
         FROM sessions WHERE tracked_user_id IS NOT NULL GROUP BY tracked_user_id) agg
   WHERE agg.tracked_user_id = tracked_users.id`,
  // One index per list sort, keyset order (key, id); the last-seen one also serves the statuses.
  `CREATE INDEX tracked_users_last_seen_idx ON tracked_users
     (organization_id, (COALESCE(last_event_at, '-infinity'::timestamptz)), id)`,
  `CREATE INDEX tracked_users_sessions_idx ON tracked_users (organization_id, session_count, id)`,
  `CREATE INDEX tracked_users_active_time_idx ON tracked_users (organization_id, active_time, id)`,
  `CREATE INDEX tracked_users_newest_idx ON tracked_users (organization_id, created_at, id)`,
  // Recomputing a user's last event after a delete or relink is one index probe.
  `CREATE INDEX sessions_tracked_user_last_event_idx ON sessions
     (tracked_user_id, (COALESCE(ended_at, started_at)))`,
  // Per-user session list: newest first, keyset (created_at, id).
  `CREATE INDEX sessions_tracked_user_created_idx ON sessions (tracked_user_id, created_at, id)`,
  `CREATE FUNCTION tracked_user_refresh_last_event(user_id text) RETURNS void
   LANGUAGE sql AS $$
     UPDATE tracked_users SET last_event_at = (
       SELECT max(COALESCE(ended_at, started_at)) FROM sessions WHERE tracked_user_id = user_id
     ) WHERE id = user_id
   $$`,
  `CREATE FUNCTION tracked_user_rollup_row() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'UPDATE' AND OLD.tracked_user_id IS NOT NULL THEN
       IF OLD.tracked_user_id IS NOT DISTINCT FROM NEW.tracked_user_id
          AND COALESCE(NEW.ended_at, NEW.started_at) >= COALESCE(OLD.ended_at, OLD.started_at) THEN
         -- the common ingest case: the session grew; no recount needed
         UPDATE tracked_users SET active_time = active_time + NEW.duration - OLD.duration,
           last_event_at = GREATEST(last_event_at, COALESCE(NEW.ended_at, NEW.started_at))
         WHERE id = NEW.tracked_user_id;
         RETURN NULL;
       END IF;
       UPDATE tracked_users SET session_count = session_count - 1,
         active_time = active_time - OLD.duration
       WHERE id = OLD.tracked_user_id;
       PERFORM tracked_user_refresh_last_event(OLD.tracked_user_id);
     END IF;
     IF NEW.tracked_user_id IS NOT NULL THEN
       UPDATE tracked_users SET session_count = session_count + 1,
         active_time = active_time + NEW.duration,
         last_event_at = GREATEST(last_event_at, COALESCE(NEW.ended_at, NEW.started_at))
       WHERE id = NEW.tracked_user_id;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER sessions_rollup_insert AFTER INSERT ON sessions
   FOR EACH ROW WHEN (NEW.tracked_user_id IS NOT NULL)
   EXECUTE FUNCTION tracked_user_rollup_row()`,
  // Anonymous sessions and batches that change nothing skip the trigger entirely.
  `CREATE TRIGGER sessions_rollup_update AFTER UPDATE ON sessions
   FOR EACH ROW WHEN (
     OLD.tracked_user_id IS DISTINCT FROM NEW.tracked_user_id
     OR (NEW.tracked_user_id IS NOT NULL AND (OLD.started_at IS DISTINCT FROM NEW.started_at
       OR OLD.ended_at IS DISTINCT FROM NEW.ended_at)))
   EXECUTE FUNCTION tracked_user_rollup_row()`,
  // Statement level: cleanup deletes sessions in bulk, one rollup per affected user per chunk.
  `CREATE FUNCTION tracked_user_rollup_delete() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE tracked_users SET session_count = tracked_users.session_count - gone.n,
       active_time = tracked_users.active_time - gone.total,
       last_event_at = (SELECT max(COALESCE(s.ended_at, s.started_at)) FROM sessions s
                        WHERE s.tracked_user_id = tracked_users.id)
     FROM (SELECT tracked_user_id, count(*)::integer AS n, sum(duration)::bigint AS total
           FROM gone_sessions WHERE tracked_user_id IS NOT NULL GROUP BY tracked_user_id) gone
     WHERE tracked_users.id = gone.tracked_user_id;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER sessions_rollup_delete AFTER DELETE ON sessions
   REFERENCING OLD TABLE AS gone_sessions
   FOR EACH STATEMENT EXECUTE FUNCTION tracked_user_rollup_delete()`,
];
