// The audit log (docs/decisions.md "Audit log"): one row per change a security review asks about,
// written in the same transaction as the change (core/audit/record.ts), kept 400 days by the daily
// cleanup. The actor's id and email are copied as they were, so a row outlives its user's account.
//
// - The keyset index serves the organization's pages, newest first (GET /api/organizations/:id/audit).
// - view_hour is set only on `session.view` rows: the hour the replay was opened, so that the
//   unique index keeps one row per viewer, session and hour (ON CONFLICT DO NOTHING).
// - organizations.audit_views: the organization's "audit replay views" setting, off by default.
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
  `CREATE TABLE audit_log (
     id varchar(25) PRIMARY KEY,
     organization_id text NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
     action varchar(64) NOT NULL,
     actor_id varchar(64),
     actor_email varchar(254) NOT NULL,
     target_type varchar(32) NOT NULL,
     target_id varchar(64),
     details jsonb NOT NULL DEFAULT '{}'::jsonb,
     client_address varchar(64),
     view_hour timestamptz,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX audit_log_keyset_idx ON audit_log (organization_id, created_at DESC, id DESC)`,
  `CREATE UNIQUE INDEX audit_log_views_idx ON audit_log (organization_id, actor_id, target_id, view_hour)
     WHERE view_hour IS NOT NULL`,
  // The daily cleanup deletes rows past 400 days, oldest first.
  `CREATE INDEX audit_log_created_idx ON audit_log (created_at)`,
  `ALTER TABLE organizations ADD COLUMN audit_views boolean NOT NULL DEFAULT false`,
];

const DOWN = [
  `ALTER TABLE organizations DROP COLUMN audit_views`,
  `DROP TABLE audit_log`,
];
