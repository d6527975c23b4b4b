// Passkey ceremonies: each options call stores its challenge here for five minutes, and the verify
// call deletes the row it uses, so a challenge is single use across every instance.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE webauthn_challenges (
    id text PRIMARY KEY,
    purpose text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
    user_id text REFERENCES users (id) ON DELETE CASCADE,
    challenge text NOT NULL,
    expires_at timestamptz NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`.execute(db);
  await sql`CREATE INDEX webauthn_challenges_expires_at_idx ON webauthn_challenges (expires_at)`
    .execute(db);
  await sql`CREATE INDEX webauthn_challenges_user_id_idx ON webauthn_challenges (user_id)`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE webauthn_challenges`.execute(db);
}
