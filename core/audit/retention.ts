// The audit log is kept 400 days (docs/decisions.md "Audit log"): the daily cleanup
// (core/service/cleanup.ts) deletes older rows, oldest first, in bounded chunks.
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { chunked } from "@/core/chunked.ts";
import { deleteAuditRowsBefore } from "@/db/queries/audit/audit.ts";

export const AUDIT_RETENTION_DAYS = 400;
const DAY_MS = 86_400_000;

/** Deletes the rows written more than AUDIT_RETENTION_DAYS before `now`; how many. */
export async function sweepAuditLog(
  db: Kysely<Database>,
  now: Date,
  chunkRows: number,
): Promise<number> {
  const before = new Date(now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS);
  return await chunked(chunkRows, (n) => deleteAuditRowsBefore(db, before, n));
}
