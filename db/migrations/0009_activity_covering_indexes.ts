// A tracked user's activity reads the url markers and the batches of every session in
// its window (5,000 sessions for the benchmark's heavy user), one index probe per session each.
// Both indexes those probes use now carry what the query reads, so every probe is an index-only
// scan and no longer visits the table: markers' (session_id, ts, id) index includes kind and data
// (the pathname), the batches' dedup key includes first_ts and event_count. The same two indexes
// are replaced, not added to, so ingest still writes one entry per row in each.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX markers_session_covering_idx ON markers (session_id, ts, id)
    INCLUDE (kind, data)`.execute(db);
  await sql`DROP INDEX markers_session_idx`.execute(db);
  await sql`ALTER INDEX markers_session_covering_idx RENAME TO markers_session_idx`.execute(db);
  await replaceDedupKey(db, "INCLUDE (first_ts, event_count)");
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX markers_session_plain_idx ON markers (session_id, ts, id)`.execute(db);
  await sql`DROP INDEX markers_session_idx`.execute(db);
  await sql`ALTER INDEX markers_session_plain_idx RENAME TO markers_session_idx`.execute(db);
  await replaceDedupKey(db, "");
}

/** The batches' unique key (ingest's ON CONFLICT target), same name and columns. */
// deno-lint-ignore no-explicit-any
async function replaceDedupKey(db: Kysely<any>, include: string): Promise<void> {
  const name = "event_batches_project_id_session_external_id_digest_key";
  await sql.raw(`ALTER TABLE event_batches DROP CONSTRAINT ${name},
    ADD CONSTRAINT ${name} UNIQUE (project_id, session_external_id, digest) ${include}`)
    .execute(db);
}
