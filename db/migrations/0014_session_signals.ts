// Session signals: what went wrong in a session and where it ran, on the session row so the
// sessions list filters and sorts by it with index ranges instead of reading markers or batches.
// - error_count, rage_click_count, dead_click_count: the session's `error`, `rage_click` and
//   `dead_click` markers, counted by ingest in the statement that inserts them. Back-filled from
//   the markers already stored (older sessions' console errors were never markers: they read 0).
// - browser, os, device: parsed by ingest from the user agent (bowser); back-filled here once per
//   distinct user agent, with the same mapping as core/ingest/user_agent.ts.
// - Indexes: one partial index holds only sessions with a signal (few), for the `signals` filter;
//   the `signals` sort walks the sum; browser, os and device each lead an index in list order;
//   `user` and `visited` are trigram matches (pg_trgm, 0003) over immutable text functions of a
//   tracked user (external id, custom name, trait values) and of a session's url pathnames.
// - markers_signals_idx: the insights' signal markers of a range of days, without the url ones.
import Bowser from "bowser";
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
  await backfillClients(db);
  for (const statement of INDEXES) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

const UP = [
  `ALTER TABLE sessions
     ADD COLUMN error_count integer NOT NULL DEFAULT 0,
     ADD COLUMN rage_click_count integer NOT NULL DEFAULT 0,
     ADD COLUMN dead_click_count integer NOT NULL DEFAULT 0,
     ADD COLUMN browser text,
     ADD COLUMN os text,
     ADD COLUMN device text`,
  // The text a `user` search matches: trait values as their JSON text (strings quoted).
  `CREATE FUNCTION tracked_user_search_text(external_id text, custom_name text, traits jsonb)
     RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
       SELECT external_id || ' ' || COALESCE(custom_name, '') || ' '
         || jsonb_path_query_array(traits, 'strict $.*')::text
     $$`,
  // array_to_string is only STABLE (element output functions); for text[] it cannot change.
  `CREATE FUNCTION session_pathnames_text(pathnames text[])
     RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
       SELECT array_to_string(pathnames, ' ')
     $$`,
  // The backfills change no rolled-up column: 0007's trigger would only cancel deltas out.
  `ALTER TABLE sessions DISABLE TRIGGER sessions_summary_update`,
  `UPDATE sessions SET error_count = m.errors, rage_click_count = m.rage, dead_click_count = m.dead
   FROM (SELECT session_id, count(*) FILTER (WHERE kind = 'error')::integer AS errors,
           count(*) FILTER (WHERE kind = 'rage_click')::integer AS rage,
           count(*) FILTER (WHERE kind = 'dead_click')::integer AS dead
         FROM markers WHERE kind IN ('error', 'rage_click', 'dead_click')
         GROUP BY session_id) m
   WHERE m.session_id = sessions.id`,
];

const INDEXES = [
  `ALTER TABLE sessions ENABLE TRIGGER sessions_summary_update`,
  `CREATE INDEX sessions_org_signaled_idx ON sessions (organization_id, started_at DESC, id DESC)
     WHERE error_count + rage_click_count + dead_click_count > 0`,
  `CREATE INDEX sessions_org_signals_idx ON sessions
     (organization_id, (error_count + rage_click_count + dead_click_count) DESC, id DESC)`,
  `CREATE INDEX sessions_org_browser_idx ON sessions (organization_id, browser, started_at DESC, id DESC)`,
  `CREATE INDEX sessions_org_os_idx ON sessions (organization_id, os, started_at DESC, id DESC)`,
  `CREATE INDEX sessions_org_device_idx ON sessions (organization_id, device, started_at DESC, id DESC)`,
  `CREATE INDEX sessions_pathnames_trgm_idx ON sessions
     USING gin (session_pathnames_text(url_pathnames) gin_trgm_ops)`,
  `CREATE INDEX tracked_users_search_trgm_idx ON tracked_users
     USING gin (tracked_user_search_text(external_id, custom_name, traits) gin_trgm_ops)`,
  `CREATE INDEX markers_signals_idx ON markers (session_created_at, kind)
     INCLUDE (session_id, ts, data) WHERE kind IN ('error', 'rage_click', 'dead_click')`,
];

const DOWN = [
  `DROP INDEX markers_signals_idx`,
  `DROP INDEX tracked_users_search_trgm_idx`,
  `DROP FUNCTION tracked_user_search_text(text, text, jsonb)`,
  `DROP INDEX sessions_pathnames_trgm_idx`,
  `DROP FUNCTION session_pathnames_text(text[])`,
  `ALTER TABLE sessions DROP COLUMN error_count, DROP COLUMN rage_click_count,
     DROP COLUMN dead_click_count, DROP COLUMN browser, DROP COLUMN os, DROP COLUMN device`,
];

/** browser, os and device of the stored sessions, one update per distinct user agent. */
// deno-lint-ignore no-explicit-any
async function backfillClients(db: Kysely<any>): Promise<void> {
  const { rows } = await sql<{ ua: string }>`
    SELECT DISTINCT user_agent AS ua FROM sessions WHERE user_agent IS NOT NULL AND user_agent <> ''
  `.execute(db);
  for (const { ua } of rows) {
    const parsed = Bowser.parse(ua);
    const type = parsed.platform.type;
    const device = type === "desktop" || type === "mobile" || type === "tablet" ? type : null;
    await sql`UPDATE sessions SET browser = ${parsed.browser.name || null},
        os = ${parsed.os.name || null}, device = ${device}
      WHERE user_agent = ${ua}`.execute(db);
  }
}
