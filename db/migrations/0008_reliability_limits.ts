// Reliability limits: tokens revoked by sign-out (kept only until they would have expired anyway),
// and fixed-window counters for the throttles of unauthenticated endpoints (per client address and
// global), shared by every instance.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE revoked_tokens (
    token_id text PRIMARY KEY,
    expires_at timestamptz NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX revoked_tokens_expires_at_idx ON revoked_tokens (expires_at)`.execute(db);
  await sql`CREATE TABLE rate_limit_counters (
    bucket text NOT NULL,
    window_start timestamptz NOT NULL,
    count integer NOT NULL,
    PRIMARY KEY (bucket, window_start)
  )`.execute(db);
  await sql`CREATE INDEX rate_limit_counters_window_start_idx ON rate_limit_counters (window_start)`
    .execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE rate_limit_counters`.execute(db);
  await sql`DROP TABLE revoked_tokens`.execute(db);
}
