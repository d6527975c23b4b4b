// Search for the sessions list: a trigram index so `externalId ILIKE '%text%'` is an index lookup
// instead of a scan of the organisation's sessions (2.7 s → 7 ms for a rare match among 1,000,000
// sessions on the development machine). PGlite loads pg_trgm in db/client.ts.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
  await sql`CREATE INDEX sessions_external_id_trgm_idx ON sessions
    USING gin (external_id gin_trgm_ops)`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  // The extension stays: other objects may have come to depend on it.
  await sql`DROP INDEX sessions_external_id_trgm_idx`.execute(db);
}
