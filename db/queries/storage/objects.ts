// The objects the offloader wrote (stored_objects, migration 0016) as the daily cleanup sees them:
// orphans to delete, objects holding deleted sessions' bytes to rewrite, expired days to forget.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;

export async function forgetObject(db: Db, key: string): Promise<void> {
  await db.deleteFrom("stored_objects").where("key", "=", key).execute();
}

/** Objects never committed (a crash between upload and commit, or replaced) before `before`. */
export async function orphanObjects(db: Db, before: Date, limit: number): Promise<string[]> {
  const rows = await db.selectFrom("stored_objects").select("key")
    .where("committed", "=", false).where("created_at", "<", before)
    .orderBy("created_at").limit(limit).execute();
  return rows.map((r) => r.key);
}

/**
 * Committed objects that hold bytes of deleted sessions, of days from `fromDay` (YYYY-MM-DD), and
 * pinned ones of any day (an erased pinned session's object).
 */
export async function dirtyObjects(db: Db, fromDay: string, limit: number) {
  return await db.selectFrom("stored_objects")
    .select(["key", sql<string>`day::text`.as("day"), "pinned"])
    .where("dirty", "=", true).where("committed", "=", true)
    .where((eb) => eb.or([eb("day", ">=", fromDay), eb("pinned", "=", true)]))
    .orderBy("created_at").limit(limit).execute();
}

export interface LiveBatch {
  id: number;
  created: string;
  offset: number;
  length: number;
}

/** The batches that still point at an object, in its byte order. */
export async function liveBatches(db: Db, key: string, day: string): Promise<LiveBatch[]> {
  const { rows } = await sql<LiveBatch>`
    SELECT id, session_created_at::text AS created, object_offset AS "offset",
      object_length AS length
    FROM event_batches
    WHERE object_key = ${key}
      AND session_created_at >= ${day}::date::timestamp AT TIME ZONE 'UTC'
      AND session_created_at < (${day}::date + 1)::timestamp AT TIME ZONE 'UTC'
    ORDER BY object_offset`.execute(db);
  return rows.map((r) => ({ ...r, id: Number(r.id), offset: Number(r.offset) }));
}

/**
 * In one transaction: the batches move from `oldKey` to their place in `newKey`, the new object is
 * committed (dirty when a batch went meanwhile), and the old one becomes an orphan whose deletion
 * waits for the next sweep, so a replay reading it right now is not cut off.
 */
export async function replaceObject(
  db: Db,
  oldKey: string,
  newKey: string,
  moves: Array<LiveBatch & { newOffset: number }>,
): Promise<number> {
  return await db.transaction().execute(async (tx) => {
    const result = await sql`
      UPDATE event_batches b SET object_key = ${newKey}, object_offset = t.offset
      FROM unnest(${moves.map((m) => m.id)}::bigint[], ${moves.map((m) => m.created)}::text[],
        ${moves.map((m) => m.newOffset)}::bigint[]) AS t(id, created, "offset")
      WHERE b.id = t.id AND b.session_created_at = t.created::timestamptz
        AND b.object_key = ${oldKey}`.execute(tx);
    const moved = Number(result.numAffectedRows ?? 0n);
    await tx.updateTable("stored_objects")
      .set({ committed: true, dirty: moved < moves.length }).where("key", "=", newKey).execute();
    await sql`UPDATE stored_objects SET committed = false, dirty = false, created_at = now()
      WHERE key = ${oldKey}`.execute(tx);
    return moved;
  });
}

/**
 * Forgets the objects of the days before `day` (their prefixes were deleted from the store); the
 * pinned ones live elsewhere.
 */
export async function forgetDaysBefore(db: Db, day: string): Promise<void> {
  await db.deleteFrom("stored_objects").where("day", "<", day).where("pinned", "=", false)
    .execute();
}

/** Of these keys, those an event batch points at. */
export async function referencedKeys(db: Db, keys: string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows = await db.selectFrom("event_batches").select("object_key").distinct()
    .where("object_key", "in", keys).execute();
  return new Set(rows.map((r) => r.object_key!));
}
