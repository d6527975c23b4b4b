// Alert counts from per-minute rollups (docs/decisions.md "Alerts"): reading the window's signal
// markers cost 130–480 ms for a day's window at 100,000 sessions; the count must hold 50 ms at a
// million for every window (5–1,440 minutes), exactly (a session counts once per group).
// - alert_signal_minutes: one row per project, signal kind, dimension (page, and the kind's own:
//   selector for clicks, error_group for errors, endpoint for failed requests), UTC minute of the
//   signal's ts, group key and session (twice in a minute is one row).
// - alert_signal_last: each (group, session)'s last signal minute (a `none` dimension, group '',
//   for rules without a group: any page). alert_signal_last_counts: per group and minute, how many
//   (group, session)s have their last signal then; alert_signal_last_hours, the same per UTC
//   hour (a day's window reads 24 of these and its two ends' minutes). A window ending now holds
//   each session once:
//   the counts of its minutes, plus the few sessions whose last signal is at or after its end (the
//   current minute, a clock ahead) with a row inside it (alert_signal_last_late_idx, then their
//   per-minute rows by session). Reading the window's per-minute rows and counting distinct sessions
//   took 0.8 s for a day of 100,000 signalling sessions in one project; this reads a row per group
//   and minute.
// - Written by statement triggers, on markers (in the transaction that writes them, ingest's one
//   statement, as 0017's rollups are) and on the per-minute rows; a session's rows leave with it
//   (erasure, retention, its project's deletion) by a statement trigger on sessions, which takes
//   its counts back.
// - alert_signal_backfill: the markers stored before this migration are rolled up by a resumable
//   back-fill, alert_signal_backfill_step() called by the alerts' minute job, newest first: the
//   row holds the id below which markers remain, moved with each step's rows; it goes when none do.
// - alert_rules.saved_search_id gets its foreign key: NO ACTION, so deleting a saved search a rule
//   uses is refused (a member could otherwise remove an ADMIN's rule); checked at the statement's
//   end, so an organization's deletion still takes both. Rules on a saved search already gone
//   (they counted nothing) are deleted first.
// - alert_rules.group_key: the one group a rule watches (a page, element, error group or endpoint,
//   as "Alert me" on an insights row names it); NULL, every group of its groupBy.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

/**
 * The rollup rows of the markers of a CTE `signal_markers`, with their sessions' pages; sorted, so
 * two writers sharing rows take them in one order (no deadlock).
 */
const ROLLUP_ROWS = `
  SELECT DISTINCT s.project_id, m.kind, g.dimension,
    m.ts / 60000 - (m.ts % 60000 < 0)::integer AS minute, left(g.group_key, 512) AS group_key,
    m.session_id
  FROM signal_markers m JOIN sessions s ON s.id = m.session_id
  CROSS JOIN LATERAL (VALUES
    ('page', signal_page(s.url_ts, s.url_pathnames, m.ts)),
    (CASE m.kind WHEN 'error' THEN 'error_group' WHEN 'network_error' THEN 'endpoint'
       ELSE 'selector' END,
     CASE m.kind WHEN 'error' THEN error_fingerprint(m.data)
       WHEN 'network_error' THEN m.data ->> 'endpoint' ELSE m.data ->> 'selector' END)
  ) AS g(dimension, group_key)
  WHERE m.kind IN ('error', 'rage_click', 'dead_click', 'network_error')
    AND g.group_key IS NOT NULL
  ORDER BY 1, 2, 3, 4, 5, 6`;

/** A (group, session) of alert_signal_last, the columns of table alias `t`. */
const KEY = ["project_id", "kind", "dimension", "group_key", "session_id"];
const keyOf = (t: string) => KEY.map((c) => `${t}.${c}`).join(", ");
/** The UTC hour of a row's `minute` (floored, as the minute is from the ms). */
const HOUR = "minute / 60 - (minute % 60 < 0)::integer";

const UP = [
  `CREATE TABLE alert_signal_minutes (
     project_id text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('error', 'rage_click', 'dead_click', 'network_error')),
     dimension text NOT NULL CHECK (dimension IN ('page', 'selector', 'error_group', 'endpoint')),
     minute bigint NOT NULL,
     group_key text NOT NULL,
     session_id text NOT NULL,
     PRIMARY KEY (project_id, kind, dimension, minute, group_key, session_id)
   )`,
  `CREATE INDEX alert_signal_minutes_session_idx ON alert_signal_minutes (session_id)`,
  `CREATE TABLE alert_signal_last (
     project_id text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('error', 'rage_click', 'dead_click', 'network_error')),
     dimension text NOT NULL
       CHECK (dimension IN ('page', 'selector', 'error_group', 'endpoint', 'none')),
     group_key text NOT NULL,
     session_id text NOT NULL,
     last_minute bigint NOT NULL,
     previous_minute bigint,
     PRIMARY KEY (project_id, kind, dimension, group_key, session_id)
   )`,
  // The sessions whose last signal is at or after the evaluated minute, of every project: few
  // (the current minute's, a clock ahead), and never an index a (group, session)'s lookup by its
  // key could take instead of the primary key.
  `CREATE INDEX alert_signal_last_late_idx ON alert_signal_last
     (last_minute, project_id, kind, dimension)`,
  `CREATE INDEX alert_signal_last_group_idx ON alert_signal_last
     (project_id, kind, dimension, group_key, last_minute)`,
  `CREATE INDEX alert_signal_last_session_idx ON alert_signal_last (session_id)`,
  `CREATE TABLE alert_signal_last_counts (
     project_id text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('error', 'rage_click', 'dead_click', 'network_error')),
     dimension text NOT NULL
       CHECK (dimension IN ('page', 'selector', 'error_group', 'endpoint', 'none')),
     minute bigint NOT NULL,
     group_key text NOT NULL,
     sessions integer NOT NULL,
     PRIMARY KEY (project_id, kind, dimension, minute, group_key)
   )`,
  // The same per UTC hour: a day's window reads its whole hours here, its two ends by the minute.
  `CREATE TABLE alert_signal_last_hours (
     project_id text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('error', 'rage_click', 'dead_click', 'network_error')),
     dimension text NOT NULL
       CHECK (dimension IN ('page', 'selector', 'error_group', 'endpoint', 'none')),
     hour bigint NOT NULL,
     group_key text NOT NULL,
     sessions integer NOT NULL,
     PRIMARY KEY (project_id, kind, dimension, hour, group_key)
   )`,
  // The new (group, session, minute) rows move each (group, session)'s last minute forward, and
  // its count from the old minute to the new one. The upsert reads the old minute on the locked
  // row (its previous_minute: meaningful only in what the statement returns), so two writers of
  // one (group, session) take turns and each moves the count from what the other left.
  `CREATE FUNCTION alert_signal_last_insert() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     WITH f AS (
       SELECT project_id, kind, dimension, group_key, session_id, max(minute) AS minute
       FROM fresh GROUP BY 1, 2, 3, 4, 5
       UNION ALL
       SELECT project_id, kind, 'none', '', session_id, max(minute)
       FROM fresh WHERE dimension = 'page' GROUP BY 1, 2, 5
     ),
     up AS (
       INSERT INTO alert_signal_last AS l (${KEY.join(", ")}, last_minute, previous_minute)
       SELECT ${keyOf("f")}, f.minute, NULL FROM f ORDER BY 1, 2, 3, 4, 5
       ON CONFLICT (${KEY.join(", ")}) DO UPDATE
         SET previous_minute = l.last_minute,
           last_minute = GREATEST(l.last_minute, EXCLUDED.last_minute)
       RETURNING l.project_id, l.kind, l.dimension, l.group_key, l.last_minute, l.previous_minute
     ),
     delta AS (
       SELECT project_id, kind, dimension, previous_minute AS minute, group_key, -1 AS d FROM up
       WHERE last_minute > previous_minute
       UNION ALL
       SELECT project_id, kind, dimension, last_minute, group_key, 1 FROM up
       WHERE previous_minute IS NULL OR last_minute > previous_minute
     ),
     minutes AS (
       INSERT INTO alert_signal_last_counts AS c
         (project_id, kind, dimension, minute, group_key, sessions)
       SELECT project_id, kind, dimension, minute, group_key, sum(d)::integer FROM delta
       GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5
       ON CONFLICT (project_id, kind, dimension, minute, group_key)
         DO UPDATE SET sessions = c.sessions + EXCLUDED.sessions
     )
     INSERT INTO alert_signal_last_hours AS h
       (project_id, kind, dimension, hour, group_key, sessions)
     SELECT project_id, kind, dimension, ${HOUR}, group_key, sum(d)::integer FROM delta
     GROUP BY 1, 2, 3, 4, 5 HAVING sum(d) <> 0 ORDER BY 1, 2, 3, 4, 5
     ON CONFLICT (project_id, kind, dimension, hour, group_key)
       DO UPDATE SET sessions = h.sessions + EXCLUDED.sessions;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER alert_signal_minutes_last AFTER INSERT ON alert_signal_minutes
   REFERENCING NEW TABLE AS fresh
   FOR EACH STATEMENT EXECUTE FUNCTION alert_signal_last_insert()`,
  `CREATE FUNCTION alert_signal_minutes_insert() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NOT EXISTS (SELECT FROM added
       WHERE kind IN ('error', 'rage_click', 'dead_click', 'network_error')) THEN
       RETURN NULL;
     END IF;
     WITH signal_markers AS (SELECT * FROM added)
     INSERT INTO alert_signal_minutes (project_id, kind, dimension, minute, group_key, session_id)
     ${ROLLUP_ROWS}
     ON CONFLICT DO NOTHING;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER markers_alert_signal_minutes AFTER INSERT ON markers
   REFERENCING NEW TABLE AS added
   FOR EACH STATEMENT EXECUTE FUNCTION alert_signal_minutes_insert()`,
  `CREATE FUNCTION alert_signal_minutes_delete() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM alert_signal_minutes r USING old_sessions s WHERE r.session_id = s.id;
     WITH gone AS (
       DELETE FROM alert_signal_last l USING old_sessions s WHERE l.session_id = s.id
       RETURNING l.project_id, l.kind, l.dimension, l.last_minute AS minute, l.group_key
     ),
     g AS (
       SELECT project_id, kind, dimension, minute, group_key, count(*)::integer AS n
       FROM gone GROUP BY 1, 2, 3, 4, 5
     ),
     x AS (
       SELECT project_id, kind, dimension, ${HOUR} AS hour, group_key, sum(n)::integer AS n
       FROM g GROUP BY 1, 2, 3, 4, 5
     ),
     -- A count the sessions' going takes to zero goes with them: its group (a page, a selector,
     -- an error's text) is theirs, and an erasure leaves none of their text (the rows the same
     -- statement updates are the others).
     minutes_gone AS (
       DELETE FROM alert_signal_last_counts c USING g
       WHERE (c.project_id, c.kind, c.dimension, c.minute, c.group_key)
         = (g.project_id, g.kind, g.dimension, g.minute, g.group_key) AND c.sessions <= g.n
     ),
     minutes AS (
       UPDATE alert_signal_last_counts c SET sessions = c.sessions - g.n FROM g
       WHERE (c.project_id, c.kind, c.dimension, c.minute, c.group_key)
         = (g.project_id, g.kind, g.dimension, g.minute, g.group_key) AND c.sessions > g.n
     ),
     hours_gone AS (
       DELETE FROM alert_signal_last_hours h USING x
       WHERE (h.project_id, h.kind, h.dimension, h.hour, h.group_key)
         = (x.project_id, x.kind, x.dimension, x.hour, x.group_key) AND h.sessions <= x.n
     )
     UPDATE alert_signal_last_hours h SET sessions = h.sessions - x.n FROM x
     WHERE (h.project_id, h.kind, h.dimension, h.hour, h.group_key)
       = (x.project_id, x.kind, x.dimension, x.hour, x.group_key) AND h.sessions > x.n;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER sessions_delete_alert_signals AFTER DELETE ON sessions
   REFERENCING OLD TABLE AS old_sessions
   FOR EACH STATEMENT EXECUTE FUNCTION alert_signal_minutes_delete()`,
  `CREATE TABLE alert_signal_backfill (below_id bigint NOT NULL)`,
  `INSERT INTO alert_signal_backfill (below_id)
   SELECT max(id) + 1 FROM markers HAVING max(id) IS NOT NULL`,
  // One step: the `chunk` markers below the mark (newest first), rolled up, and the mark moved
  // down, in the caller's transaction; NULL once none remain (the row is gone). The row's lock
  // makes two instances take turns.
  `CREATE FUNCTION alert_signal_backfill_step(chunk integer) RETURNS bigint LANGUAGE plpgsql AS $$
   DECLARE
     below bigint;
     low bigint;
   BEGIN
     SELECT below_id INTO below FROM alert_signal_backfill FOR UPDATE;
     IF NOT FOUND THEN
       RETURN NULL;
     END IF;
     SELECT min(c.id) INTO low
     FROM (SELECT id FROM markers WHERE id < below ORDER BY id DESC LIMIT chunk) c;
     IF low IS NULL THEN
       DELETE FROM alert_signal_backfill;
       RETURN NULL;
     END IF;
     WITH signal_markers AS (SELECT * FROM markers WHERE id >= low AND id < below)
     INSERT INTO alert_signal_minutes (project_id, kind, dimension, minute, group_key, session_id)
     ${ROLLUP_ROWS}
     ON CONFLICT DO NOTHING;
     UPDATE alert_signal_backfill SET below_id = low;
     RETURN low;
   END $$`,
  `DELETE FROM alert_rules r WHERE r.saved_search_id IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM saved_searches s WHERE s.id = r.saved_search_id)`,
  `ALTER TABLE alert_rules ADD CONSTRAINT alert_rules_saved_search_fkey
     FOREIGN KEY (saved_search_id) REFERENCES saved_searches (id)`,
  `CREATE INDEX alert_rules_saved_search_idx ON alert_rules (saved_search_id)
     WHERE saved_search_id IS NOT NULL`,
  `ALTER TABLE alert_rules ADD COLUMN group_key text
     CHECK (group_key IS NULL OR (group_by IS NOT NULL AND length(group_key) <= 512))`,
];

const DOWN = [
  `ALTER TABLE alert_rules DROP COLUMN group_key`,
  `DROP INDEX alert_rules_saved_search_idx`,
  `ALTER TABLE alert_rules DROP CONSTRAINT alert_rules_saved_search_fkey`,
  `DROP FUNCTION alert_signal_backfill_step(integer)`,
  `DROP TABLE alert_signal_backfill`,
  `DROP TRIGGER sessions_delete_alert_signals ON sessions`,
  `DROP TRIGGER markers_alert_signal_minutes ON markers`,
  `DROP FUNCTION alert_signal_minutes_delete(), alert_signal_minutes_insert()`,
  `DROP TABLE alert_signal_minutes, alert_signal_last, alert_signal_last_counts,
     alert_signal_last_hours`,
  `DROP FUNCTION alert_signal_last_insert()`,
];
