// The heatmaps' queue (migration 0040): sessions whose stored batches changed, claimed for a lease
// by one instance, then done (gone from the queue unless a batch arrived meanwhile).
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface QueuedSession {
  project_id: string;
  session_external_id: string;
  /**
   * The row's due_at when claimed, as PostgreSQL's text, compared as text (a Date, or a parameter cast back, drops its microseconds): a
   * batch arriving later moves it, and the row stays queued.
   */
  due_at: string;
}

/** A session recording on is derived at least this often (while quiet: a minute after its last batch). */
export const RECORDING_REDERIVE_MS = 10 * 60_000;

/** Claims up to `limit` due sessions until `leaseUntil`: quiet ones, or queued long enough ago. */
export async function claimDue(
  db: Kysely<Database>,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<QueuedSession[]> {
  const longAgo = new Date(now.getTime() - RECORDING_REDERIVE_MS);
  const { rows } = await sql<QueuedSession>`
    UPDATE heatmap_queue q SET claimed_until = ${leaseUntil}
    FROM (
      SELECT project_id, session_external_id FROM heatmap_queue
      WHERE (due_at <= ${now} OR queued_at <= ${longAgo})
        AND (claimed_until IS NULL OR claimed_until < ${now})
      ORDER BY due_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    ) due
    WHERE q.project_id = due.project_id AND q.session_external_id = due.session_external_id
    RETURNING q.project_id, q.session_external_id, q.due_at::text AS due_at`.execute(db);
  return rows;
}

/** Done with a claimed session: its row goes unless a batch moved its due_at since the claim. */
export async function finishQueued(db: Kysely<Database>, queued: QueuedSession): Promise<void> {
  const gone = await db.deleteFrom("heatmap_queue")
    .where("project_id", "=", queued.project_id)
    .where("session_external_id", "=", queued.session_external_id)
    .where(sql<string>`due_at::text`, "=", queued.due_at)
    .executeTakeFirst();
  if (Number(gone.numDeletedRows) > 0) return;
  await db.updateTable("heatmap_queue").set({ claimed_until: null, queued_at: new Date() })
    .where("project_id", "=", queued.project_id)
    .where("session_external_id", "=", queued.session_external_id).execute();
}

/** The queued session's row (its organization, for reading its batches), or null once gone. */
export async function queuedSession(
  db: Kysely<Database>,
  queued: Pick<QueuedSession, "project_id" | "session_external_id">,
) {
  const row = await db.selectFrom("sessions").select(["id", "organization_id"])
    .where("project_id", "=", queued.project_id)
    .where("external_id", "=", queued.session_external_id).executeTakeFirst();
  return row ?? null;
}
