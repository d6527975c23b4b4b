// Opening a replay at a moment (`?t=`) starts from the last full snapshot at or before it
// instead of the session's first batch. Ingest already parses every batch, so it stores when the
// batch's first full snapshot (led by its Meta) was taken; the events endpoint's `from` picks the
// batch to start at by it. Batches stored before this migration have none: a read then starts at
// the first batch, as before (slower, never wrong).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // Nullable without a default: no partition is rewritten.
  await sql`ALTER TABLE event_batches ADD COLUMN snapshot_ts bigint`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE event_batches DROP COLUMN snapshot_ts`.execute(db);
}
