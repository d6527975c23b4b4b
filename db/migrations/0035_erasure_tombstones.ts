// Erasure tombstones (docs/decisions.md "Erasure"): what an erasure leaves behind so that what it
// erased cannot come back, and nothing more.
//
// - erased_sessions: one row per erased session (a tracked user's erasure, a dashboard delete, the
//   SDK's cancel): its project and external id (a UUID the SDK made, not personal data) and when.
//   Ingest refuses a batch for a tombstoned session (410 Gone), so a tab left open recreates
//   nothing. Kept 30 days (the oldest recorded time ingest accepts), then swept by the cleanup.
// - erased_tracked_users: one row per erased tracked user: the SHA-256 of its external id (never
//   the id itself: the tombstone holds no personal data) and how many sessions went with it.
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
  `CREATE TABLE erased_sessions (
     project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     external_id varchar(64) NOT NULL,
     erased_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (project_id, external_id)
   )`,
  // The cleanup sweeps tombstones past the oldest recorded time ingest accepts.
  `CREATE INDEX erased_sessions_erased_at_idx ON erased_sessions (erased_at)`,
  `CREATE TABLE erased_tracked_users (
     project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     external_id_sha256 char(64) NOT NULL,
     sessions integer NOT NULL,
     erased_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (project_id, external_id_sha256, erased_at)
   )`,
];

const DOWN = [`DROP TABLE erased_tracked_users`, `DROP TABLE erased_sessions`];
