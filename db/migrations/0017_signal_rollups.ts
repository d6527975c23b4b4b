// The insights from rollups instead of every signal marker of the range (over a second at
// 1,000,000 sessions for 7 days). Kept by statement triggers in the transaction that writes the
// markers (ingest's one statement), as 0007's summaries are:
// - signal_rollups: per organization, kind, UTC day of the sessions' created_at (the markers'
//   partition key, so retention and a range cut them as they cut markers), project and key — an
//   element's selector (rage_click, dead_click), an error's message (error), the page a signal
//   happened on (page), the UTC day of a signal's ts (day) — the signals by kind, the sessions
//   that had one (a session counts once per key: on its one created day, when its first marker of
//   that key arrives) and the latest signal's ts and text. Days, not hours: a 7-day range reads
//   ~900 rows per list at 1,000,000 sessions, where hours made it ~22,000 (70 ms).
// - signal_users: per element or message and tracked user, the newest created_at of the user's
//   sessions with one; the users of a range ending now are the rows at or after its start.
// A deleted session takes its counts back (its trigger runs before 0012's deletes its markers);
// the latest signal's ts and text, and signal_users' user, stay until their rows expire.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

/** The key a signal marker `m` rolls up under (NULL: a click without a selector, left out). */
const KEY = `CASE m.kind WHEN 'error' THEN COALESCE(m.data ->> 'message', '')
  ELSE m.data ->> 'selector' END`;

/**
 * The signal markers of `markers` (a relation aliased `m`) with their session `s`, the day,
 * key and page, limited by `where`.
 */
const signals = (markers: string, sessions: string, where = "true") =>
  `SELECT m.id, m.session_id, m.session_created_at, m.ts, m.kind, m.data,
     s.organization_id, s.project_id, s.tracked_user_id,
     (m.session_created_at AT TIME ZONE 'UTC')::date AS created_day, ${KEY} AS key,
     signal_page(s.url_ts, s.url_pathnames, m.ts) AS page
   FROM ${markers} m JOIN ${sessions} s ON s.id = m.session_id
   WHERE m.kind IN ('error', 'rage_click', 'dead_click') AND ${where}`;

/**
 * The rollup rows of the signals `sig`; `freshKey` and `freshPage` say whether a signal's session
 * had no marker of that key (elements, errors) or on that page before, so it counts once.
 */
const rollupRows = (freshKey: string, freshPage: string) =>
  `SELECT organization_id, kind, created_day, project_id, key,
     count(DISTINCT session_id) FILTER (WHERE ${freshKey})::integer AS sessions,
     count(*) FILTER (WHERE kind = 'error')::integer AS errors,
     count(*) FILTER (WHERE kind = 'rage_click')::integer AS rage_clicks,
     count(*) FILTER (WHERE kind = 'dead_click')::integer AS dead_clicks,
     max(ts) AS last_ts, (array_agg(data ->> 'text' ORDER BY ts DESC))[1] AS last_text
   FROM sig WHERE key IS NOT NULL GROUP BY 1, 2, 3, 4, 5
   UNION ALL
   SELECT organization_id, 'page', created_day, project_id, page,
     count(DISTINCT session_id) FILTER (WHERE ${freshPage})::integer,
     count(*) FILTER (WHERE kind = 'error')::integer,
     count(*) FILTER (WHERE kind = 'rage_click')::integer,
     count(*) FILTER (WHERE kind = 'dead_click')::integer, max(ts), NULL
   FROM sig GROUP BY 1, 2, 3, 4, 5
   UNION ALL
   SELECT organization_id, 'day', created_day, project_id,
     to_char(to_timestamp(ts / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0,
     count(*) FILTER (WHERE kind = 'error')::integer,
     count(*) FILTER (WHERE kind = 'rage_click')::integer,
     count(*) FILTER (WHERE kind = 'dead_click')::integer, max(ts), NULL
   FROM sig GROUP BY 1, 2, 3, 4, 5`;

const userRows = `SELECT organization_id, kind, key, project_id, tracked_user_id,
     max(session_created_at) AS last_created_at
   FROM sig WHERE key IS NOT NULL AND tracked_user_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5`;

const ROLLUP_COLUMNS = `(organization_id, kind, created_day, project_id, key, sessions, errors,
  rage_clicks, dead_clicks, last_ts, last_text)`;

/** No earlier marker of the session (than those in `added`) with the signal's key / page. */
const freshKey = `NOT EXISTS (SELECT 1 FROM markers m
  WHERE m.session_id = sig.session_id AND m.session_created_at = sig.session_created_at
    AND m.kind = sig.kind AND ${KEY} = sig.key
    AND NOT EXISTS (SELECT 1 FROM added x WHERE x.id = m.id))`;
const freshPage = `NOT EXISTS (SELECT 1 FROM markers m, sessions s
  WHERE m.session_id = sig.session_id AND m.session_created_at = sig.session_created_at
    AND m.kind IN ('error', 'rage_click', 'dead_click') AND s.id = m.session_id
    AND signal_page(s.url_ts, s.url_pathnames, m.ts) = sig.page
    AND NOT EXISTS (SELECT 1 FROM added x WHERE x.id = m.id))`;

const UP = [
  `CREATE TABLE signal_rollups (
     organization_id text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('error', 'rage_click', 'dead_click', 'page', 'day')),
     created_day date NOT NULL,
     project_id text NOT NULL,
     key text NOT NULL,
     sessions integer NOT NULL,
     errors integer NOT NULL,
     rage_clicks integer NOT NULL,
     dead_clicks integer NOT NULL,
     last_ts bigint NOT NULL,
     last_text text,
     PRIMARY KEY (organization_id, kind, created_day, project_id, key)
   )`,
  `CREATE TABLE signal_users (
     organization_id text NOT NULL,
     kind text NOT NULL,
     key text NOT NULL,
     project_id text NOT NULL,
     tracked_user_id text NOT NULL,
     last_created_at timestamptz NOT NULL,
     PRIMARY KEY (organization_id, kind, key, project_id, tracked_user_id)
   )`,
  `CREATE INDEX signal_users_range_idx ON signal_users
     (organization_id, kind, key, last_created_at) INCLUDE (project_id)`,
  // The page a signal at ts happened on: the last url before it, else the session's first.
  `CREATE FUNCTION signal_page(url_ts bigint[], url_pathnames text[], ts bigint)
     RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
       SELECT COALESCE(
         (SELECT u.p FROM unnest(url_ts, url_pathnames) AS u(ts, p)
           WHERE u.ts <= $3 ORDER BY u.ts DESC LIMIT 1),
         url_pathnames[1], '/')
     $$`,
  // Statement triggers fire for every markers insert (ingest's url markers): a statement without
  // a signal returns after one look at its transition table. Rows are upserted in key order, so
  // two ingests sharing rows lock them in the same order (no deadlock).
  `CREATE FUNCTION signal_rollups_insert() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NOT EXISTS (SELECT FROM added WHERE kind IN ('error', 'rage_click', 'dead_click')) THEN
       RETURN NULL;
     END IF;
     WITH sig AS MATERIALIZED (${signals("added", "sessions")}),
     users AS (
       INSERT INTO signal_users AS u
         (organization_id, kind, key, project_id, tracked_user_id, last_created_at)
       ${userRows} ORDER BY 1, 2, 3, 4, 5
       ON CONFLICT (organization_id, kind, key, project_id, tracked_user_id) DO UPDATE
         SET last_created_at = GREATEST(u.last_created_at, EXCLUDED.last_created_at)
     )
     INSERT INTO signal_rollups AS r ${ROLLUP_COLUMNS}
     SELECT * FROM (${rollupRows(freshKey, freshPage)}) AS grouped ORDER BY 1, 2, 3, 4, 5
     ON CONFLICT (organization_id, kind, created_day, project_id, key) DO UPDATE SET
       sessions = r.sessions + EXCLUDED.sessions,
       errors = r.errors + EXCLUDED.errors,
       rage_clicks = r.rage_clicks + EXCLUDED.rage_clicks,
       dead_clicks = r.dead_clicks + EXCLUDED.dead_clicks,
       last_text = CASE WHEN EXCLUDED.last_ts >= r.last_ts THEN EXCLUDED.last_text
         ELSE r.last_text END,
       last_ts = GREATEST(r.last_ts, EXCLUDED.last_ts);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER markers_signal_rollups AFTER INSERT ON markers
   REFERENCING NEW TABLE AS added
   FOR EACH STATEMENT EXECUTE FUNCTION signal_rollups_insert()`,
  // Deleted sessions' signals leave the counts (a session goes with all its markers, so every
  // session of a group was counted once). Named to fire before sessions_delete_rows (0012), which
  // deletes the markers it reads; a marker already gone with its day partition is read as none.
  `CREATE FUNCTION signal_rollups_delete() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NOT EXISTS (SELECT FROM old_sessions
       WHERE error_count + rage_click_count + dead_click_count > 0) THEN
       RETURN NULL;
     END IF;
     WITH sig AS MATERIALIZED (${
    signals(
      "markers",
      "(SELECT * FROM old_sessions WHERE error_count + rage_click_count + dead_click_count > 0)",
      "m.session_created_at = s.created_at",
    )
  })
     UPDATE signal_rollups AS r SET sessions = r.sessions - d.sessions,
       errors = r.errors - d.errors, rage_clicks = r.rage_clicks - d.rage_clicks,
       dead_clicks = r.dead_clicks - d.dead_clicks
     FROM (${rollupRows("true", "true")}) AS d
     WHERE r.organization_id = d.organization_id AND r.kind = d.kind
       AND r.created_day = d.created_day AND r.project_id = d.project_id AND r.key = d.key;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER sessions_delete_insights AFTER DELETE ON sessions
   REFERENCING OLD TABLE AS old_sessions
   FOR EACH STATEMENT EXECUTE FUNCTION signal_rollups_delete()`,
  // Both tables recomputed from the markers: this back-fill, and loads that bypass the triggers
  // (the query benchmark's seed).
  `CREATE FUNCTION rebuild_signal_rollups() RETURNS void LANGUAGE sql AS $$
     TRUNCATE signal_rollups, signal_users;
     INSERT INTO signal_users (organization_id, kind, key, project_id, tracked_user_id,
       last_created_at)
     WITH sig AS MATERIALIZED (${signals("markers", "sessions")})
     ${userRows};
     INSERT INTO signal_rollups ${ROLLUP_COLUMNS}
     WITH sig AS MATERIALIZED (${signals("markers", "sessions")})
     ${rollupRows("true", "true")};
   $$`,
  `SELECT rebuild_signal_rollups()`,
  `ANALYZE signal_rollups, signal_users`,
];

const DOWN = [
  `DROP TRIGGER sessions_delete_insights ON sessions`,
  `DROP TRIGGER markers_signal_rollups ON markers`,
  `DROP FUNCTION rebuild_signal_rollups()`,
  `DROP FUNCTION signal_rollups_delete()`,
  `DROP FUNCTION signal_rollups_insert()`,
  `DROP FUNCTION signal_page(bigint[], text[], bigint)`,
  `DROP TABLE signal_users, signal_rollups`,
];
