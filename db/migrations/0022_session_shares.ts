// Public links to one session: a random token whose SHA-256 alone is stored, an expiry,
// an optional window of the replay and a view count; the organization's switch that allows them.
// A deleted session takes its links with it (the cascade), so a link to it answers 404.
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
  `ALTER TABLE organizations ADD COLUMN allow_public_links boolean NOT NULL DEFAULT true`,
  `CREATE TABLE session_shares (
     id text PRIMARY KEY,
     organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
     session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     token_hash text NOT NULL UNIQUE,
     created_by_id text REFERENCES users (id) ON DELETE SET NULL,
     start_ms bigint,
     end_ms bigint,
     show_console boolean NOT NULL DEFAULT false,
     expires_at timestamptz NOT NULL,
     revoked_at timestamptz,
     views integer NOT NULL DEFAULT 0,
     last_viewed_at timestamptz,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  // The cascade from a deleted session (and the list of a session's links) finds them by this.
  `CREATE INDEX session_shares_session_idx ON session_shares (session_id, created_at)`,
];

const DOWN = [
  `DROP TABLE session_shares`,
  `ALTER TABLE organizations DROP COLUMN allow_public_links`,
];
