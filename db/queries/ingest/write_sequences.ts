// The ingest write's sequence step (migration 0031): a batch the SDK numbered claims its page's
// sequence numbers before it is stored, and what a page has stored is read after a claim failed.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import type { IngestRow } from "./write.ts";

/**
 * The statement's `claim` CTE, or nothing for a batch without numbers. The row lock makes one
 * page's requests take turns, and ON CONFLICT's update reads the row's latest version, not the
 * statement's snapshot: no number is claimed twice. A claim that meets a number already there
 * claims nothing (no row returned), and the batch CTE then stores nothing.
 */
export function sequencesClaim(row: IngestRow) {
  const range = row.batch?.range;
  if (!range) return sql``;
  return sql`claim AS (
    INSERT INTO page_sequences (project_id, session_external_id, session_created_at, page_id, seqs)
    SELECT project.id, ${row.externalId}, placed.created_at, ${range.pageId}::uuid,
      ${range.claim}::int8multirange
    FROM project, placed
    ON CONFLICT (project_id, session_external_id, session_created_at, page_id) DO UPDATE
      SET seqs = page_sequences.seqs + EXCLUDED.seqs
      WHERE NOT page_sequences.seqs && EXCLUDED.seqs
    RETURNING 1
  ),`;
}

/**
 * The sequence numbers of the page's events stored for the session (an int8multirange's text,
 * `{}` for none); a statement of its own, so it sees what committed after the failed claim began.
 */
export async function storedSequences(
  db: Kysely<Database>,
  projectId: string,
  externalId: string,
  pageId: string,
): Promise<string> {
  const row = await db.selectFrom("page_sequences").select(sql<string>`seqs::text`.as("seqs"))
    .where("project_id", "=", projectId).where("session_external_id", "=", externalId)
    .where("page_id", "=", pageId)
    .where("session_created_at", "=", (eb) =>
      eb.selectFrom("sessions").select("created_at")
        .where("project_id", "=", projectId).where("external_id", "=", externalId))
    .executeTakeFirst();
  return row?.seqs ?? "{}";
}
