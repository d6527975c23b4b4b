// Comments on a moment of a session: written and read by every member, kept with the
// session (deleted with it). The sessions list filters by them: any at all, or text contained,
// case-insensitively (a trigram index, as the list's other text filters).
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
  `CREATE TABLE session_comments (
     id text PRIMARY KEY,
     organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
     session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     author_id text REFERENCES users (id) ON DELETE SET NULL,
     offset_ms bigint NOT NULL CHECK (offset_ms >= 0),
     text text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX session_comments_session_idx ON session_comments (session_id, offset_ms)`,
  `CREATE INDEX session_comments_text_trgm_idx ON session_comments USING gin (text gin_trgm_ops)`,
];

const DOWN = [`DROP TABLE session_comments`];
