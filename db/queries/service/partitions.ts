// The day partitions of event_batches and markers (migration 0012): made ahead of the days that
// will fill them, dropped whole once every session of the day is past retention.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;

/** Makes the partitions of the UTC days from `first` to `last` that are missing; returns how many. */
export async function addDayPartitions(db: Db, first: Date, last: Date): Promise<number> {
  const { rows } = await sql<{ made: number }>`
    SELECT add_day_partitions(${utcDay(first)}::date, ${utcDay(last)}::date) AS made`.execute(db);
  return rows[0].made;
}

/** The day partitions that end at or before `cutoff`, oldest first. */
export async function expiredDayPartitions(db: Db, cutoff: Date): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT expired_day_partitions AS name FROM expired_day_partitions(${cutoff})`.execute(db);
  return rows.map((r) => r.name);
}

/**
 * Drops one day partition. Dropping locks the parent table, so a statement that holds it (or
 * waits ahead) for longer than `lockTimeoutMs` makes this give up rather than queue ingest
 * behind it: false, and the day's rows go with their sessions, row by row.
 */
export async function dropDayPartition(db: Db, name: string, lockTimeoutMs: number) {
  await sql`SELECT set_config('lock_timeout', ${`${lockTimeoutMs}ms`}, false)`.execute(db);
  try {
    await sql`DROP TABLE IF EXISTS ${sql.id(name)}`.execute(db);
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === "55P03") return false; // lock_not_available
    throw error;
  } finally {
    await sql`RESET lock_timeout`.execute(db);
  }
}

const utcDay = (at: Date) => at.toISOString().slice(0, 10);
