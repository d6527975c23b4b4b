// The pinned sessions whose bytes the daily cleanup moves out of their day's packed objects into
// one object each (core/storage/pins.ts, migration 0036).
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import type { LiveBatch } from "./objects.ts";

type Db = Kysely<Database>;

export interface PinnedSession {
  id: string;
  projectId: string;
  externalId: string;
  /** Its created_at as PostgreSQL's text, and its UTC day (YYYY-MM-DD). */
  created: string;
  day: string;
}

/**
 * Pinned sessions past their project's retention at `now` with a batch still in a packed
 * (not pinned) object: up to `limit`, oldest first.
 */
export async function pinnedToMove(db: Db, now: Date, limit: number): Promise<PinnedSession[]> {
  const { rows } = await sql<PinnedSession>`
    SELECT s.id, s.project_id AS "projectId", s.external_id AS "externalId",
      s.created_at::text AS created,
      to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day
    FROM sessions s JOIN projects p ON p.id = s.project_id
    WHERE s.pinned_at IS NOT NULL
      AND s.created_at < ${now}::timestamptz - make_interval(days => p.retention_days)
      AND EXISTS (
        SELECT 1 FROM event_batches b JOIN stored_objects o ON o.key = b.object_key
        WHERE b.project_id = s.project_id AND b.session_external_id = s.external_id
          AND b.session_created_at = s.created_at AND NOT o.pinned)
    ORDER BY s.created_at LIMIT ${limit}`.execute(db);
  return rows;
}

/**
 * A session's offloaded batches with the object each is in, in object and byte order. Its
 * `created_at` goes as text: a timestamptz parameter would pass through a JavaScript Date and lose
 * its microseconds (the day partition's key).
 */
export async function sessionStoredBatches(db: Db, s: PinnedSession) {
  const { rows } = await sql<LiveBatch & { key: string }>`
    SELECT id, session_created_at::text AS created, object_key AS key,
      object_offset AS "offset", object_length AS length
    FROM event_batches
    WHERE project_id = ${s.projectId} AND session_external_id = ${s.externalId}
      AND session_created_at = ${s.created}::text::timestamptz AND object_key IS NOT NULL
    ORDER BY object_key, object_offset`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), offset: Number(r.offset) }));
}

/**
 * In one transaction: the batches still where they were read move to their place in `newKey`,
 * which is committed as pinned (dirty when a batch went meanwhile: an erasure), and the pinned
 * objects they left are marked dirty (the daily cleanup deletes them). The packed objects keep
 * their bytes until their day goes whole. Returns how many batches moved.
 */
export async function commitPinnedMove(
  db: Db,
  newKey: string,
  moves: Array<LiveBatch & { key: string; newOffset: number }>,
): Promise<number> {
  return await db.transaction().execute(async (tx) => {
    const result = await sql`
      UPDATE event_batches b SET object_key = ${newKey}, object_offset = t.offset
      FROM unnest(${moves.map((m) => m.id)}::bigint[], ${moves.map((m) => m.created)}::text[],
        ${moves.map((m) => m.key)}::text[], ${moves.map((m) => m.newOffset)}::bigint[])
        AS t(id, created, old_key, "offset")
      WHERE b.id = t.id AND b.session_created_at = t.created::timestamptz
        AND b.object_key = t.old_key`.execute(tx);
    const moved = Number(result.numAffectedRows ?? 0n);
    await tx.updateTable("stored_objects")
      .set({ committed: true, pinned: true, dirty: moved < moves.length })
      .where("key", "=", newKey).execute();
    const left = [...new Set(moves.map((m) => m.key))];
    await tx.updateTable("stored_objects").set({ dirty: true })
      .where("key", "in", left).where("pinned", "=", true).execute();
    return moved;
  });
}
