// Two more things the insights read from the signal rollups (0017, 0021):
// - `hour` rows: signals per UTC hour of their ts (key `YYYY-MM-DDTHH`), as `day` rows count them
//   per day, so the "Today" trend has a point per hour instead of one (24 rows a day per project);
// - `last_stack`: the stack of a key's latest signal, beside its latest message (`last_text`), so an
//   error group shows its whole message and stack without reading every error marker of the range.
// The insert and delete triggers and the rebuild are 0021's with these added, and both tables are
// rebuilt from the markers (the back-fill of the hours and stacks).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements(true)) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of statements(false)) await sql.raw(statement).execute(db);
}

const KEY = `signal_key(m.kind, m.data)`;

const signals = (markers: string, sessions: string, where = "true") =>
  `SELECT m.id, m.session_id, m.session_created_at, m.ts, m.kind, m.data,
     s.organization_id, s.project_id, s.tracked_user_id,
     (m.session_created_at AT TIME ZONE 'UTC')::date AS created_day, ${KEY} AS key,
     signal_page(s.url_ts, s.url_pathnames, m.ts) AS page
   FROM ${markers} m JOIN ${sessions} s ON s.id = m.session_id
   WHERE m.kind IN ('error', 'rage_click', 'dead_click') AND ${where}`;

/** A `day` (or `hour`) row of `sig` grouped by `format` of the signal's UTC ts. */
const timeRows = (kind: string, format: string, v2: boolean) =>
  `SELECT organization_id, '${kind}', created_day, project_id,
     to_char(to_timestamp(ts / 1000.0) AT TIME ZONE 'UTC', '${format}'), 0,
     count(*) FILTER (WHERE kind = 'error')::integer,
     count(*) FILTER (WHERE kind = 'rage_click')::integer,
     count(*) FILTER (WHERE kind = 'dead_click')::integer, max(ts), NULL, min(ts)${
    v2 ? ", NULL" : ""
  }
   FROM sig GROUP BY 1, 2, 3, 4, 5`;

/** 0021's rows; with v2 each key's latest stack too, and the hours. */
const rollupRows = (freshKey: string, freshPage: string, v2: boolean) =>
  `SELECT organization_id, kind, created_day, project_id, key,
     count(DISTINCT session_id) FILTER (WHERE ${freshKey})::integer AS sessions,
     count(*) FILTER (WHERE kind = 'error')::integer AS errors,
     count(*) FILTER (WHERE kind = 'rage_click')::integer AS rage_clicks,
     count(*) FILTER (WHERE kind = 'dead_click')::integer AS dead_clicks,
     max(ts) AS last_ts,
     (array_agg(COALESCE(data ->> 'text', data ->> 'message') ORDER BY ts DESC))[1] AS last_text,
     min(ts) AS first_ts${
    v2 ? `,\n     (array_agg(data ->> 'stack' ORDER BY ts DESC))[1] AS last_stack` : ""
  }
   FROM sig WHERE key IS NOT NULL GROUP BY 1, 2, 3, 4, 5
   UNION ALL
   SELECT organization_id, 'page', created_day, project_id, page,
     count(DISTINCT session_id) FILTER (WHERE ${freshPage})::integer,
     count(*) FILTER (WHERE kind = 'error')::integer,
     count(*) FILTER (WHERE kind = 'rage_click')::integer,
     count(*) FILTER (WHERE kind = 'dead_click')::integer, max(ts), NULL, min(ts)${
    v2 ? ", NULL" : ""
  }
   FROM sig GROUP BY 1, 2, 3, 4, 5
   UNION ALL
   ${timeRows("day", "YYYY-MM-DD", v2)}${
    v2 ? `\n   UNION ALL\n   ${timeRows("hour", 'YYYY-MM-DD"T"HH24', v2)}` : ""
  }`;

const userRows = `SELECT organization_id, kind, key, project_id, tracked_user_id,
     max(session_created_at) AS last_created_at
   FROM sig WHERE key IS NOT NULL AND tracked_user_id IS NOT NULL GROUP BY 1, 2, 3, 4, 5`;

const columns = (v2: boolean) =>
  `(organization_id, kind, created_day, project_id, key, sessions, errors,
  rage_clicks, dead_clicks, last_ts, last_text, first_ts${v2 ? ", last_stack" : ""})`;

const freshKey = `NOT EXISTS (SELECT 1 FROM markers m
  WHERE m.session_id = sig.session_id AND m.session_created_at = sig.session_created_at
    AND m.kind = sig.kind AND ${KEY} = sig.key
    AND NOT EXISTS (SELECT 1 FROM added x WHERE x.id = m.id))`;
const freshPage = `NOT EXISTS (SELECT 1 FROM markers m, sessions s
  WHERE m.session_id = sig.session_id AND m.session_created_at = sig.session_created_at
    AND m.kind IN ('error', 'rage_click', 'dead_click') AND s.id = m.session_id
    AND signal_page(s.url_ts, s.url_pathnames, m.ts) = sig.page
    AND NOT EXISTS (SELECT 1 FROM added x WHERE x.id = m.id))`;

const KINDS = `'error', 'rage_click', 'dead_click', 'page', 'day'`;

const statements = (v2: boolean) => [
  v2
    ? `ALTER TABLE signal_rollups ADD COLUMN last_stack text`
    : `DELETE FROM signal_rollups WHERE kind = 'hour'`,
  `ALTER TABLE signal_rollups DROP CONSTRAINT signal_rollups_kind_check`,
  `ALTER TABLE signal_rollups ADD CONSTRAINT signal_rollups_kind_check
     CHECK (kind IN (${KINDS}${v2 ? ", 'hour'" : ""}))`,
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
     INSERT INTO signal_rollups AS r ${columns(v2)}
     SELECT * FROM (${rollupRows(freshKey, freshPage, v2)}) AS grouped ORDER BY 1, 2, 3, 4, 5
     ON CONFLICT (organization_id, kind, created_day, project_id, key) DO UPDATE SET
       sessions = r.sessions + EXCLUDED.sessions,
       errors = r.errors + EXCLUDED.errors,
       rage_clicks = r.rage_clicks + EXCLUDED.rage_clicks,
       dead_clicks = r.dead_clicks + EXCLUDED.dead_clicks,
       last_text = CASE WHEN EXCLUDED.last_ts >= r.last_ts THEN EXCLUDED.last_text
         ELSE r.last_text END,${
    v2
      ? `
       last_stack = CASE WHEN EXCLUDED.last_ts >= r.last_ts THEN EXCLUDED.last_stack
         ELSE r.last_stack END,`
      : ""
  }
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
     FROM (${rollupRows("true", "true", v2)}) AS d
     WHERE r.organization_id = d.organization_id AND r.kind = d.kind
       AND r.created_day = d.created_day AND r.project_id = d.project_id AND r.key = d.key;
     RETURN NULL;
   END $$`,
  `CREATE OR REPLACE FUNCTION rebuild_signal_rollups() RETURNS void LANGUAGE sql AS $$
     TRUNCATE signal_rollups, signal_users;
     INSERT INTO signal_users (organization_id, kind, key, project_id, tracked_user_id,
       last_created_at)
     WITH sig AS MATERIALIZED (${signals("markers", "sessions")})
     ${userRows};
     INSERT INTO signal_rollups ${columns(v2)}
     WITH sig AS MATERIALIZED (${signals("markers", "sessions")})
     ${rollupRows("true", "true", v2)};
   $$`,
  ...(v2
    ? [`SELECT rebuild_signal_rollups()`, `ANALYZE signal_rollups, signal_users`]
    : [`ALTER TABLE signal_rollups DROP COLUMN last_stack`]),
];
