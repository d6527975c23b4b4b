// The back-fill of the alert rollup (migration 0039) for markers stored before it existed: each
// step rolls up the next chunk of markers below the stored mark (newest first) and moves the mark
// in its own transaction, so a run cut short resumes where its last step committed.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

/**
 * Runs up to `steps` steps of `chunk` markers each; true once nothing is left (then every later
 * call is one read of an empty table).
 */
export async function backfillAlertSignals(
  db: Kysely<Database>,
  options: { chunk: number; steps: number },
): Promise<boolean> {
  for (let step = 0; step < options.steps; step++) {
    const { rows: [row] } = await sql<{ low: string | null }>`
      SELECT alert_signal_backfill_step(${options.chunk}::integer) AS low`.execute(db);
    if (row.low === null) return true;
  }
  return false;
}
