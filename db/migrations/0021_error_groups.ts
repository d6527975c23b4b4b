// Errors grouped by a fingerprint instead of their exact message: the message with URLs, ids and
// numbers folded, plus the top frame of its stack (numbers folded, query cut), so "Order 8123
// failed" and "Order 9001 failed" thrown from one place are one group (error_fingerprint). Every
// signal key is now signal_key(kind, data); 0017's and 0020's functions are redefined with it,
// the rollups keep each key's first signal (first_ts) and an error's latest message as its text,
// and both tables are rebuilt from the markers (the back-fill of the new keys).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE signal_rollups DROP COLUMN first_ts`.execute(db);
  // 0017's and 0020's functions would need their own text back: roll forward instead.
}

const KEY = `signal_key(m.kind, m.data)`;

const signals = (markers: string, sessions: string, where = "true") =>
  `SELECT m.id, m.session_id, m.session_created_at, m.ts, m.kind, m.data,
     s.organization_id, s.project_id, s.tracked_user_id,
     (m.session_created_at AT TIME ZONE 'UTC')::date AS created_day, ${KEY} AS key,
     signal_page(s.url_ts, s.url_pathnames, m.ts) AS page
   FROM ${markers} m JOIN ${sessions} s ON s.id = m.session_id
   WHERE m.kind IN ('error', 'rage_click', 'dead_click') AND ${where}`;

/** As 0017's, plus first_ts; an error's text is its message. */
const rollupRows = (freshKey: string, freshPage: string) =>
  `SELECT organization_id, kind, created_day, project_id, key,
     count(DISTINCT session_id) FILTER (WHERE ${freshKey})::integer AS sessions,
     count(*) FILTER (WHERE kind = 'error')::integer AS errors,
     count(*) FILTER (WHERE kind = 'rage_click')::integer AS rage_clicks,
     count(*) FILTER (WHERE kind = 'dead_click')::integer AS dead_clicks,
     max(ts) AS last_ts,
     (array_agg(COALESCE(data ->> 'text', data ->> 'message') ORDER BY ts DESC))[1] AS last_text,
     min(ts) AS first_ts
   FROM sig WHERE key IS NOT NULL GROUP BY 1, 2, 3, 4, 5
   UNION ALL
   SELECT organization_id, 'page', created_day, project_id, page,
     count(DISTINCT session_id) FILTER (WHERE ${freshPage})::integer,
     count(*) FILTER (WHERE kind = 'error')::integer,
     count(*) FILTER (WHERE kind = 'rage_click')::integer,
     count(*) FILTER (WHERE kind = 'dead_click')::integer, max(ts), NULL, min(ts)
   FROM sig GROUP BY 1, 2, 3, 4, 5
   UNION ALL
   SELECT organization_id, 'day', created_day, project_id,
     to_char(to_timestamp(ts / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD'), 0,
     count(*) FILTER (WHERE kind = 'error')::integer,
     count(*) FILTER (WHERE kind = 'rage_click')::integer,
     count(*) FILTER (WHERE kind = 'dead_click')::integer, max(ts), NULL, min(ts)
   FROM sig GROUP BY 1, 2, 3, 4, 5`;

const userRows = `SELECT organization_id, kind, key, project_id, tracked_user_id,
     max(session_created_at) AS last_created_at
   FROM sig WHERE key IS NOT NULL AND tracked_user_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5`;

const ROLLUP_COLUMNS = `(organization_id, kind, created_day, project_id, key, sessions, errors,
  rage_clicks, dead_clicks, last_ts, last_text, first_ts)`;

const freshKey = `NOT EXISTS (SELECT 1 FROM markers m
  WHERE m.session_id = sig.session_id AND m.session_created_at = sig.session_created_at
    AND m.kind = sig.kind AND ${KEY} = sig.key
    AND NOT EXISTS (SELECT 1 FROM added x WHERE x.id = m.id))`;
const freshPage = `NOT EXISTS (SELECT 1 FROM markers m, sessions s
  WHERE m.session_id = sig.session_id AND m.session_created_at = sig.session_created_at
    AND m.kind IN ('error', 'rage_click', 'dead_click') AND s.id = m.session_id
    AND signal_page(s.url_ts, s.url_pathnames, m.ts) = sig.page
    AND NOT EXISTS (SELECT 1 FROM added x WHERE x.id = m.id))`;

/** 0020's sessions of the statement that got a (new) tracked user and have signals. */
const IDENTIFIED = `(SELECT n.* FROM new_sessions n JOIN old_sessions o ON o.id = n.id
  WHERE n.tracked_user_id IS NOT NULL AND n.tracked_user_id IS DISTINCT FROM o.tracked_user_id
    AND n.error_count + n.rage_click_count + n.dead_click_count > 0)`;

const UP = [
  `ALTER TABLE signal_rollups ADD COLUMN first_ts bigint`,
  // Folds what differs between occurrences of one error: URLs, then words of 6 or more
  // characters holding a digit (ids, hashes, UUIDs' parts), then the remaining numbers.
  `CREATE FUNCTION error_text_fold(text text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE
   AS $$
     SELECT regexp_replace(regexp_replace(regexp_replace(
       $1, '[a-zA-Z][a-zA-Z0-9+.-]*://[^\\s''"()<>]+', '<url>', 'g'),
       '\\m(?=[A-Za-z0-9_-]{6})[A-Za-z_-]*[0-9][A-Za-z0-9_-]*', '<id>', 'g'),
       '[0-9]+', '<n>', 'g')
   $$`,
  `CREATE FUNCTION error_fingerprint(data jsonb) RETURNS text LANGUAGE sql IMMUTABLE
   PARALLEL SAFE AS $$
     SELECT left(error_text_fold(COALESCE($1 ->> 'message', '')), 300) || COALESCE(' @ ' ||
       NULLIF(regexp_replace(regexp_replace(split_part($1 ->> 'stack', E'\\n', 1),
         '[?#][^):]*', '', 'g'), '[0-9]+', '<n>', 'g'), ''), '')
   $$`,
  `CREATE FUNCTION signal_key(kind text, data jsonb) RETURNS text LANGUAGE sql IMMUTABLE
   PARALLEL SAFE AS $$
     SELECT CASE $1 WHEN 'error' THEN error_fingerprint($2) ELSE $2 ->> 'selector' END
   $$`,
  `CREATE OR REPLACE FUNCTION signal_rollups_insert() RETURNS trigger LANGUAGE plpgsql AS $$
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
       last_ts = GREATEST(r.last_ts, EXCLUDED.last_ts),
       first_ts = LEAST(r.first_ts, EXCLUDED.first_ts);
     RETURN NULL;
   END $$`,
  `CREATE OR REPLACE FUNCTION signal_rollups_delete() RETURNS trigger LANGUAGE plpgsql AS $$
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
  `CREATE OR REPLACE FUNCTION signal_users_identified() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NOT EXISTS (SELECT FROM ${IDENTIFIED} AS i) THEN
       RETURN NULL;
     END IF;
     INSERT INTO signal_users AS u
       (organization_id, kind, key, project_id, tracked_user_id, last_created_at)
     SELECT s.organization_id, m.kind, ${KEY} AS key, s.project_id, s.tracked_user_id,
       max(s.created_at)
     FROM ${IDENTIFIED} s JOIN markers m
       ON m.session_id = s.id AND m.session_created_at = s.created_at
     WHERE m.kind IN ('error', 'rage_click', 'dead_click') AND ${KEY} IS NOT NULL
     GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
     ON CONFLICT (organization_id, kind, key, project_id, tracked_user_id) DO UPDATE
       SET last_created_at = GREATEST(u.last_created_at, EXCLUDED.last_created_at);
     RETURN NULL;
   END $$`,
  `CREATE OR REPLACE FUNCTION rebuild_signal_rollups() RETURNS void LANGUAGE sql AS $$
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
