// The readings /metrics takes from the database at each scrape, each one cheap at any size: the
// offload backlog walks the partial index of staged batches, and active sessions look only at
// sessions created in the last day (sessions_created_at_idx).
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;

/** Batches staged for the object store and when the oldest of them was received. */
export async function offloadBacklog(db: Db): Promise<{ batches: number; oldest: Date | null }> {
  const { rows } = await sql<{ batches: string; oldest: Date | null }>`
    SELECT count(*) AS batches,
      (SELECT created_at FROM event_batches WHERE staged ORDER BY id LIMIT 1) AS oldest
    FROM event_batches WHERE staged`.execute(db);
  return { batches: Number(rows[0].batches), oldest: rows[0].oldest };
}

/** Sessions created since `createdSince` whose latest event is at or after `activeSince`. */
export async function activeSessionCount(
  db: Db,
  activeSince: Date,
  createdSince: Date,
): Promise<number> {
  const row = await db.selectFrom("sessions")
    .select((eb) => eb.fn.countAll<string>().as("count"))
    .where("created_at", ">=", createdSince)
    .where("ended_at", ">=", activeSince)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
