// Saved searches (docs/decisions.md "Saved searches"): a named /sessions URL query shared with the
// organization (the project, if any, is the query's own `projectIds`), and when each member last
// opened one, from which its "new since you looked" count starts. Indexed columns are ids only.
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
  `CREATE TABLE saved_searches (
     id text PRIMARY KEY,
     organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
     name text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 100),
     query text NOT NULL CHECK (char_length(query) <= 16000),
     author_id text REFERENCES users (id) ON DELETE SET NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX saved_searches_organization_idx ON saved_searches (organization_id, created_at)`,
  `CREATE TABLE saved_search_opens (
     saved_search_id text NOT NULL REFERENCES saved_searches (id) ON DELETE CASCADE,
     user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
     opened_at timestamptz NOT NULL,
     PRIMARY KEY (saved_search_id, user_id)
   )`,
  `CREATE INDEX saved_search_opens_user_idx ON saved_search_opens (user_id)`,
];

const DOWN = [`DROP TABLE saved_search_opens`, `DROP TABLE saved_searches`];
