// OAuth sign-in attempts in flight: one row per state handed to a provider, taken (deleted) by the
// callback, so a state works once and only within its ten minutes, on any instance.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE oauth_states (
    state_hash text PRIMARY KEY,
    provider text NOT NULL,
    code_verifier text NOT NULL,
    nonce text,
    callback_url text NOT NULL,
    link_user_id text REFERENCES users (id) ON DELETE CASCADE,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX oauth_states_expires_at_idx ON oauth_states (expires_at)`.execute(db);
  await sql`CREATE INDEX oauth_states_link_user_id_idx ON oauth_states (link_user_id)`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE oauth_states`.execute(db);
}
