// Recordings in S3-compatible object storage (EVENTS_STORE). PostgreSQL stays the staging
// area and the index: ingest commits each batch inline as before, and an offloader packs staged
// batches into objects and points each one at (object_key, object_offset, object_length).
//
// - data may be NULL: an offloaded batch's bytes live in the store.
// - staged is true only for batches written while a store is configured, and NULL again once they
//   are offloaded: the partial index holds only what is waiting, so a service without a store (the
//   default) maintains no extra index entry per batch.
// - offload_claim / offload_claim_expires: an offloader claims a slice of staged batches (FOR UPDATE
//   SKIP LOCKED) in a short transaction, uploads, then commits only the rows it still holds; a
//   claim that expired (a crashed or stalled instance) may be taken by another one.
// - stored_objects: every object written, recorded before its upload. An uncommitted one left by a
//   crash is an orphan the daily cleanup deletes; `dirty` marks an object that holds bytes of a
//   deleted session, which the daily cleanup rewrites without them (or deletes when nothing in it
//   is live).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

/** 0012's delete trigger function, its batches' delete being `batches`. */
const deleteSessionRows = (batches: string) => `
  CREATE OR REPLACE FUNCTION delete_session_rows() RETURNS trigger LANGUAGE plpgsql
  SET enable_hashjoin = off SET enable_mergejoin = off SET enable_seqscan = off AS $$
  BEGIN
    ${batches}
    DELETE FROM markers m USING old_sessions s
    WHERE m.session_id = s.id AND m.session_created_at = s.created_at;
    RETURN NULL;
  END $$`;

const DELETE_BATCHES = `DELETE FROM event_batches b USING old_sessions s
    WHERE b.project_id = s.project_id AND b.session_external_id = s.external_id
      AND b.session_created_at = s.created_at;`;

const UP = [
  `ALTER TABLE event_batches ALTER COLUMN data DROP NOT NULL`,
  `ALTER TABLE event_batches ADD COLUMN staged boolean, ADD COLUMN object_key text,
     ADD COLUMN object_offset bigint, ADD COLUMN object_length integer,
     ADD COLUMN offload_claim text, ADD COLUMN offload_claim_expires timestamptz`,
  `CREATE INDEX event_batches_staged_idx ON event_batches (id) WHERE staged`,
  `CREATE INDEX event_batches_object_idx ON event_batches (object_key, object_offset)
     WHERE object_key IS NOT NULL`,
  `CREATE TABLE stored_objects (
     key text PRIMARY KEY,
     day date NOT NULL,
     bytes bigint NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     committed boolean NOT NULL DEFAULT false,
     dirty boolean NOT NULL DEFAULT false
   )`,
  // A deleted session's offloaded batches leave bytes in their objects: mark those objects.
  deleteSessionRows(
    `WITH gone AS (${DELETE_BATCHES.slice(0, -1)} RETURNING b.object_key)
    UPDATE stored_objects o SET dirty = true
    FROM (SELECT DISTINCT object_key FROM gone WHERE object_key IS NOT NULL) g
    WHERE o.key = g.object_key AND NOT o.dirty;`,
  ),
];

const DOWN = [
  deleteSessionRows(DELETE_BATCHES),
  `DROP TABLE stored_objects`,
  `DROP INDEX event_batches_staged_idx`,
  `DROP INDEX event_batches_object_idx`,
  `ALTER TABLE event_batches DROP COLUMN staged, DROP COLUMN object_key,
     DROP COLUMN object_offset, DROP COLUMN object_length, DROP COLUMN offload_claim,
     DROP COLUMN offload_claim_expires`,
  // Offloaded batches cannot come back inline here: refuse rather than leave NULL data.
  `ALTER TABLE event_batches ALTER COLUMN data SET NOT NULL`,
];
