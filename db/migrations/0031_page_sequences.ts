// Which events of each page are stored, by the SDK's per-page sequence numbers (docs/decisions.md
// "Ingest"): a page's events can arrive more than once, cut into different batches (its keepalive
// bodies at unload, its IndexedDB journal re-sent by the next page, a retry), so ingest keeps, per
// page of a session, the numbers it has stored and stores only the events of numbers it has not.
//
// - One row per page of a session: `seqs` is the multirange of the numbers stored (adjacent
//   batches merge, so a page's row is usually one range). Ingest's statement claims a batch's
//   numbers with INSERT … ON CONFLICT DO UPDATE … WHERE NOT (seqs && claimed): the row lock makes
//   two requests of one page take turns, and the update reads the row's latest version, so two
//   copies of an event can never both be claimed (db/queries/ingest/write.ts).
// - session_created_at is in the key as in event_batches: a session deleted and opened again
//   under the same id starts with nothing claimed.
// - A statement trigger of its own on sessions deletes a deleted session's rows (0012's
//   delete_session_rows is left as it is), probing the key per session, as 0012's does.
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
  `CREATE TABLE page_sequences (
     project_id text NOT NULL,
     session_external_id text NOT NULL,
     session_created_at timestamptz NOT NULL,
     page_id uuid NOT NULL,
     seqs int8multirange NOT NULL,
     PRIMARY KEY (project_id, session_external_id, session_created_at, page_id)
   )`,
  `CREATE FUNCTION delete_session_page_sequences() RETURNS trigger LANGUAGE plpgsql
   SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off AS $$
   BEGIN
     DELETE FROM page_sequences p USING old_sessions s
     WHERE p.project_id = s.project_id AND p.session_external_id = s.external_id
       AND p.session_created_at = s.created_at;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER sessions_delete_page_sequences AFTER DELETE ON sessions
   REFERENCING OLD TABLE AS old_sessions
   FOR EACH STATEMENT EXECUTE FUNCTION delete_session_page_sequences()`,
];

const DOWN = [
  `DROP TRIGGER sessions_delete_page_sequences ON sessions`,
  `DROP FUNCTION delete_session_page_sequences()`,
  `DROP TABLE page_sequences`,
];
