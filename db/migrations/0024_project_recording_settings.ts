// Per-project recording settings: what share of sessions is recorded, after how long,
// on which pages, and which triggers record a session that sampling left out. Typed columns with
// the same bounds as the API (core/projects/recording_limits.ts), so no write path can store a value
// the SDK would have to second-guess. The defaults are today's behaviour: everything recorded.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

const UP = [
  `ALTER TABLE projects
     ADD COLUMN recording_sample_rate double precision NOT NULL DEFAULT 1
       CHECK (recording_sample_rate >= 0 AND recording_sample_rate <= 1),
     ADD COLUMN recording_min_duration_ms integer NOT NULL DEFAULT 0
       CHECK (recording_min_duration_ms BETWEEN 0 AND 60000),
     ADD COLUMN recording_url_block text[] NOT NULL DEFAULT '{}'
       CHECK (cardinality(recording_url_block) <= 50),
     ADD COLUMN recording_url_allow text[] NOT NULL DEFAULT '{}'
       CHECK (cardinality(recording_url_allow) <= 50),
     ADD COLUMN recording_triggers text[] NOT NULL DEFAULT '{}'
       CHECK (recording_triggers <@ ARRAY['error', 'rage_click', 'dead_click']::text[]),
     ADD COLUMN recording_buffer_ms integer NOT NULL DEFAULT 60000
       CHECK (recording_buffer_ms BETWEEN 30000 AND 120000)`,
];

const DOWN = [
  `ALTER TABLE projects
     DROP COLUMN recording_sample_rate,
     DROP COLUMN recording_min_duration_ms,
     DROP COLUMN recording_url_block,
     DROP COLUMN recording_url_allow,
     DROP COLUMN recording_triggers,
     DROP COLUMN recording_buffer_ms`,
];
