// Summary rollups: the sessions summary and the tracked-users summary read a few
// thousand rollup rows instead of every session or user of the organisation.
//
// session_rollups: per project, per UTC hour of created_at, per UTC day of ended_at ('infinity'
// while open): sessions and summed duration. Every range of GET /api/sessions/summary starts at a
// UTC midnight or an instant; whole hours come from here and the part of the first hour after the
// instant from the sessions themselves (an index range), so the answer is exact. activeToday is
// "ended at or after today's 00:00 UTC, or open" = ended_day >= today.
// tracked_user_rollups: per project, users by UTC hour of created_at ('created') and of their last
// event ('last_seen', '-infinity' without sessions): total, new this week and active in 24 h.
//
// Kept by triggers, so ingest, every delete (the dashboard, the cleanup's chunks, cascades) and
// relinks keep them: statement level with transition tables on sessions (one upsert per statement,
// whatever the rows) and for tracked-user inserts and deletes; row level, filtered by WHEN, for
// tracked-user updates, which mostly leave the last-seen hour as it was. Deltas go to the row of
// the writing backend's shard (pg_backend_pid() % 16), so concurrent ingests of one project in
// the same hour do not queue on one row lock; a shard may go negative, the sums stay exact. Rows
// are upserted in key order, so two statements that share a shard lock them in the same order.
// compact_rollups() folds shards of past hours into shard 0 and drops empty rows.
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
  "DROP TRIGGER sessions_summary_insert ON sessions",
  "DROP TRIGGER sessions_summary_update ON sessions",
  "DROP TRIGGER sessions_summary_delete ON sessions",
  "DROP TRIGGER tracked_users_summary_insert ON tracked_users",
  "DROP TRIGGER tracked_users_summary_update ON tracked_users",
  "DROP TRIGGER tracked_users_summary_delete ON tracked_users",
  "DROP FUNCTION session_rollup_apply(), tracked_user_rollup_apply(), tracked_user_rollup_move()",
  "DROP FUNCTION compact_rollups(timestamptz)",
  "DROP TABLE session_rollups, tracked_user_rollups",
];

const SHARD = "(pg_backend_pid() % 16)::smallint";

/** The rollup deltas of session rows (`source` selects organization_id … duration, n). */
const sessionDeltas = (source: string) => `
  INSERT INTO session_rollups AS r
    (organization_id, created_hour, project_id, ended_day, shard, sessions, duration)
  SELECT organization_id, date_trunc('hour', created_at, 'UTC'), project_id,
    COALESCE(date_trunc('day', ended_at, 'UTC'), 'infinity'), ${SHARD}, sum(n), sum(n * duration)
  FROM (${source}) delta
  GROUP BY 1, 2, 3, 4
  HAVING sum(n) <> 0 OR sum(n * duration) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (organization_id, created_hour, project_id, ended_day, shard) DO UPDATE
    SET sessions = r.sessions + EXCLUDED.sessions, duration = r.duration + EXCLUDED.duration`;

const SESSION_COLUMNS = "organization_id, project_id, created_at, ended_at, duration";

/** The rollup deltas of tracked-user rows (`source` selects organization_id … last_event_at, n). */
const userDeltas = (source: string) => `
  INSERT INTO tracked_user_rollups AS r (organization_id, kind, hour, project_id, shard, users)
  SELECT organization_id, kind, hour, project_id, ${SHARD}, sum(n)
  FROM (
    SELECT organization_id, 'created' AS kind, date_trunc('hour', created_at, 'UTC') AS hour,
      project_id, n FROM (${source}) delta
    UNION ALL
    SELECT organization_id, 'last_seen',
      date_trunc('hour', COALESCE(last_event_at, '-infinity'), 'UTC'), project_id, n
    FROM (${source}) delta
  ) keyed
  GROUP BY 1, 2, 3, 4
  HAVING sum(n) <> 0
  ORDER BY 1, 2, 3, 4
  ON CONFLICT (organization_id, kind, hour, project_id, shard) DO UPDATE
    SET users = r.users + EXCLUDED.users`;

const USER_COLUMNS = "organization_id, project_id, created_at, last_event_at";

const NEW_SESSIONS = `SELECT ${SESSION_COLUMNS}, 1 AS n FROM new_sessions`;
const OLD_SESSIONS = `SELECT ${SESSION_COLUMNS}, -1 AS n FROM old_sessions`;
const userRow = (row: "NEW" | "OLD", n: number) =>
  `SELECT ${row}.organization_id AS organization_id, ${row}.project_id AS project_id,
     ${row}.created_at AS created_at, ${row}.last_event_at AS last_event_at, ${n} AS n`;

const STATEMENTS = [
  `CREATE TABLE session_rollups (
     organization_id text NOT NULL,
     created_hour timestamptz NOT NULL,
     project_id text NOT NULL,
     ended_day timestamptz NOT NULL,
     shard smallint NOT NULL,
     sessions bigint NOT NULL,
     duration bigint NOT NULL,
     PRIMARY KEY (organization_id, created_hour, project_id, ended_day, shard)
   )`,
  `CREATE TABLE tracked_user_rollups (
     organization_id text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('created', 'last_seen')),
     hour timestamptz NOT NULL,
     project_id text NOT NULL,
     shard smallint NOT NULL,
     users bigint NOT NULL,
     PRIMARY KEY (organization_id, kind, hour, project_id, shard)
   )`,
  // The rows already there, in one pass each.
  sessionDeltas(`SELECT ${SESSION_COLUMNS}, 1 AS n FROM sessions`).replace(SHARD, "0"),
  userDeltas(`SELECT ${USER_COLUMNS}, 1 AS n FROM tracked_users`).replace(SHARD, "0"),
  // Statement triggers fire even when the statement changed no row (ingest's upserts take one
  // path of two every time): an empty transition table returns before any planning.
  `CREATE FUNCTION session_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       IF EXISTS (SELECT FROM new_sessions) THEN ${sessionDeltas(NEW_SESSIONS)}; END IF;
     ELSIF TG_OP = 'DELETE' THEN
       IF EXISTS (SELECT FROM old_sessions) THEN ${sessionDeltas(OLD_SESSIONS)}; END IF;
     ELSIF EXISTS (SELECT FROM new_sessions) THEN
       ${sessionDeltas(`${NEW_SESSIONS} UNION ALL ${OLD_SESSIONS}`)};
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER sessions_summary_insert AFTER INSERT ON sessions
   REFERENCING NEW TABLE AS new_sessions
   FOR EACH STATEMENT EXECUTE FUNCTION session_rollup_apply()`,
  `CREATE TRIGGER sessions_summary_update AFTER UPDATE ON sessions
   REFERENCING OLD TABLE AS old_sessions NEW TABLE AS new_sessions
   FOR EACH STATEMENT EXECUTE FUNCTION session_rollup_apply()`,
  `CREATE TRIGGER sessions_summary_delete AFTER DELETE ON sessions
   REFERENCING OLD TABLE AS old_sessions
   FOR EACH STATEMENT EXECUTE FUNCTION session_rollup_apply()`,
  `CREATE FUNCTION tracked_user_rollup_apply() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       IF EXISTS (SELECT FROM new_users) THEN
         ${userDeltas(`SELECT ${USER_COLUMNS}, 1 AS n FROM new_users`)};
       END IF;
     ELSIF EXISTS (SELECT FROM old_users) THEN
       ${userDeltas(`SELECT ${USER_COLUMNS}, -1 AS n FROM old_users`)};
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE FUNCTION tracked_user_rollup_move() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     ${userDeltas(`${userRow("NEW", 1)} UNION ALL ${userRow("OLD", -1)}`)};
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER tracked_users_summary_insert AFTER INSERT ON tracked_users
   REFERENCING NEW TABLE AS new_users
   FOR EACH STATEMENT EXECUTE FUNCTION tracked_user_rollup_apply()`,
  `CREATE TRIGGER tracked_users_summary_delete AFTER DELETE ON tracked_users
   REFERENCING OLD TABLE AS old_users
   FOR EACH STATEMENT EXECUTE FUNCTION tracked_user_rollup_apply()`,
  // Ingest moves last_event_at on every batch of an identified session; only a new hour counts.
  `CREATE TRIGGER tracked_users_summary_update AFTER UPDATE ON tracked_users
   FOR EACH ROW WHEN (
     date_trunc('hour', COALESCE(OLD.last_event_at, '-infinity'), 'UTC')
       IS DISTINCT FROM date_trunc('hour', COALESCE(NEW.last_event_at, '-infinity'), 'UTC')
     OR OLD.created_at IS DISTINCT FROM NEW.created_at
     OR OLD.project_id IS DISTINCT FROM NEW.project_id
     OR OLD.organization_id IS DISTINCT FROM NEW.organization_id)
   EXECUTE FUNCTION tracked_user_rollup_move()`,
  // Folds the shards of the hours before the given one into shard 0; drops rows summing to 0.
  `CREATE FUNCTION compact_rollups(before timestamptz) RETURNS void LANGUAGE sql AS $$
     WITH gone AS (
       DELETE FROM session_rollups WHERE created_hour < before
       RETURNING organization_id, created_hour, project_id, ended_day, sessions, duration
     )
     INSERT INTO session_rollups
       (organization_id, created_hour, project_id, ended_day, shard, sessions, duration)
     SELECT organization_id, created_hour, project_id, ended_day, 0, sum(sessions), sum(duration)
     FROM gone GROUP BY 1, 2, 3, 4 HAVING sum(sessions) <> 0 OR sum(duration) <> 0;
     WITH gone AS (
       DELETE FROM tracked_user_rollups WHERE hour < before
       RETURNING organization_id, kind, hour, project_id, users
     )
     INSERT INTO tracked_user_rollups (organization_id, kind, hour, project_id, shard, users)
     SELECT organization_id, kind, hour, project_id, 0, sum(users)
     FROM gone GROUP BY 1, 2, 3, 4 HAVING sum(users) <> 0;
   $$`,
];
