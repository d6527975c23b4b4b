// Row types of the data governance tables: the audit log and the tombstones of erased
// sessions and tracked users, part of `Database` in db/schema.ts.
import type { ColumnType } from "kysely";

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;
type Json = ColumnType<unknown, string, string>;

/** A tombstone of an erased session (migration 0035): ingest refuses its late batches. */
export interface ErasedSessionTable {
  project_id: string;
  external_id: string;
  erased_at: CreatedAt;
}

/** A tombstone of an erased tracked user (migration 0035): its external id's SHA-256 only. */
export interface ErasedTrackedUserTable {
  project_id: string;
  external_id_sha256: string;
  sessions: number;
  erased_at: CreatedAt;
}

/** One audited change (migration 0034); the actor's id and email as they were. */
export interface AuditLogTable {
  id: string;
  organization_id: string;
  action: string;
  actor_id: string | null;
  actor_email: string;
  target_type: string;
  target_id: string | null;
  details: Json;
  client_address: string | null;
  /** The hour a `session.view` row counts in (one per viewer, session and hour); else null. */
  view_hour: Date | string | null;
  created_at: CreatedAt;
}
