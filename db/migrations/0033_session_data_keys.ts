// Recordings sealed at rest (docs/decisions.md "Recordings in an object store"): each session has
// one random AES-256 data key, stored here wrapped (AES-KW) by the key-encryption key of
// EVENTS_STORE_KEY, whose id (a hash of it) is kept beside it so that a rotated key still unwraps
// what it wrapped until the daily cleanup re-wraps it. Deleting the row (with its session, by the
// cascade, or alone) leaves that session's bytes in the store undecryptable.
//
// - event_batches.object_sealed: true for a batch offloaded sealed (AES-256-GCM under its
//   session's key); NULL for an inline batch or one offloaded in clear before this migration.
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
  `CREATE TABLE session_data_keys (
     session_id text PRIMARY KEY REFERENCES sessions (id) ON DELETE CASCADE,
     kek_id text NOT NULL,
     wrapped bytea NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  // Re-wrapping after a rotation finds the keys a previous key wrapped by this.
  `CREATE INDEX session_data_keys_kek_idx ON session_data_keys (kek_id)`,
  `ALTER TABLE event_batches ADD COLUMN object_sealed boolean`,
];

// Sealed batches cannot be read without their keys: going down leaves them unreadable.
const DOWN = [
  `ALTER TABLE event_batches DROP COLUMN object_sealed`,
  `DROP TABLE session_data_keys`,
];
