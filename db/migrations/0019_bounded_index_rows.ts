// No index holds unbounded data. A B-tree row holds at most ~2.7 KB, and past it the insert fails:
// markers' payloads (a url with a long token, a long selector or trait) were in two indexes'
// INCLUDE, and an identified session's url and batch arrays in the activity index's — a session of
// ~30 pages, or a marker over ~2.7 KB, failed every later batch with 500. Those indexes now carry
// fixed-size columns only (the reads fetch the rest from the table); ingest bounds the text that
// still reaches an index or a rollup key (core/ingest/limits.ts), and signal_page cuts a page as
// ingest does, for sessions stored before it did.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

const signalPage = (page: string) =>
  `CREATE OR REPLACE FUNCTION signal_page(url_ts bigint[], url_pathnames text[], ts bigint)
     RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
       SELECT ${
    page.replace(
      "$page",
      `COALESCE(
         (SELECT u.p FROM unnest(url_ts, url_pathnames) AS u(ts, p)
           WHERE u.ts <= $3 ORDER BY u.ts DESC LIMIT 1),
         url_pathnames[1], '/')`,
    )
  }
     $$`;

const UP = [
  `DROP INDEX markers_session_idx`,
  `CREATE INDEX markers_session_idx ON markers (session_id, ts, id) INCLUDE (kind)`,
  `DROP INDEX markers_signals_idx`,
  `CREATE INDEX markers_signals_idx ON markers (session_created_at, kind)
     INCLUDE (session_id, ts) WHERE kind IN ('error', 'rage_click', 'dead_click')`,
  `DROP INDEX sessions_tracked_user_activity_idx`,
  `CREATE INDEX sessions_tracked_user_activity_idx ON sessions (tracked_user_id, started_at)
     INCLUDE (ended_at, duration, event_count) WHERE tracked_user_id IS NOT NULL`,
  // 511 characters and the mark: core/ingest/limits.ts PATHNAME_CHARS, CUT_MARK.
  signalPage(`CASE WHEN length(page) > 512 THEN left(page, 511) || '…' ELSE page END
       FROM (SELECT $page AS page) p`),
];

const DOWN = [
  signalPage("$page"),
  `DROP INDEX sessions_tracked_user_activity_idx`,
  `CREATE INDEX sessions_tracked_user_activity_idx ON sessions (tracked_user_id, started_at)
     INCLUDE (ended_at, duration, event_count, url_ts, url_pathnames, batch_ts, batch_events)
     WHERE tracked_user_id IS NOT NULL`,
  `DROP INDEX markers_signals_idx`,
  `CREATE INDEX markers_signals_idx ON markers (session_created_at, kind)
     INCLUDE (session_id, ts, data) WHERE kind IN ('error', 'rage_click', 'dead_click')`,
  `DROP INDEX markers_session_idx`,
  `CREATE INDEX markers_session_idx ON markers (session_id, ts, id) INCLUDE (kind, data)`,
];
