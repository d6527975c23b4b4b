// The `user` search matched 0014's text of a tracked user's trait values as one JSON array
// (quotes, commas, brackets, and a nested object's keys); it now holds each scalar value at any
// depth as plain text, one per line, so only the external id, custom name and values match. The
// text is a stored column, written with the row (ingest's upsert): the function, no longer a
// single expression the planner could inline, costs ~10 µs a call, which a search reading a
// third of the users (`pro`) would pay per user. And sessions with a signal get an index by
// tracked user: `user` matching many users + `signals` probed every session of each (317 ms at
// 1,000,000 sessions); now only those with a signal.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

const OLD_INDEX = `CREATE INDEX tracked_users_search_trgm_idx ON tracked_users
  USING gin (tracked_user_search_text(external_id, custom_name, traits) gin_trgm_ops)`;

const UP = [
  `DROP INDEX tracked_users_search_trgm_idx`,
  // A newline between the parts: the search box cannot type one, so no match spans two of them.
  `CREATE OR REPLACE FUNCTION tracked_user_search_text(external_id text, custom_name text,
     traits jsonb)
     RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
       SELECT concat_ws(chr(10), external_id, custom_name,
         (SELECT string_agg(v #>> '{}', chr(10)) FROM jsonb_path_query(traits, 'strict $.**') AS v
           WHERE jsonb_typeof(v) NOT IN ('object', 'array')))
     $$`,
  `ALTER TABLE tracked_users ADD COLUMN search_text text NOT NULL
     GENERATED ALWAYS AS (tracked_user_search_text(external_id, custom_name, traits)) STORED`,
  `CREATE INDEX tracked_users_search_trgm_idx ON tracked_users USING gin (search_text gin_trgm_ops)`,
  // A search matching ~1,000 users reads them through the trigram index in ~8 ms; the planner
  // preferred a parallel scan of every user (the probes of sessions split across workers look
  // cheaper), 135-190 ms at 100,000 users. No plan over tracked_users needs a parallel scan.
  `ALTER TABLE tracked_users SET (parallel_workers = 0)`,
  `CREATE INDEX sessions_user_signaled_idx ON sessions (tracked_user_id)
     INCLUDE (organization_id, error_count, rage_click_count, dead_click_count)
     WHERE error_count + rage_click_count + dead_click_count > 0`,
];

const DOWN = [
  `DROP INDEX sessions_user_signaled_idx`,
  `ALTER TABLE tracked_users RESET (parallel_workers)`,
  `ALTER TABLE tracked_users DROP COLUMN search_text`,
  `CREATE OR REPLACE FUNCTION tracked_user_search_text(external_id text, custom_name text,
     traits jsonb)
     RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
       SELECT external_id || ' ' || COALESCE(custom_name, '') || ' '
         || jsonb_path_query_array(traits, 'strict $.*')::text
     $$`,
  OLD_INDEX,
];
