// Sessions stamped ahead of their arrival are put back in time. Before ingest bounded recorded
// times (1 day past the server's clock, never past JavaScript's Date range), a batch could store
// a start or end in year 275760: no Date holds it, and it pinned its session to the top of the
// list until the cleanup took it. A start more than a day after the session arrived becomes its
// arrival; an end more than a day ahead of now becomes the later of its start and now.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`UPDATE sessions SET started_at = created_at
    WHERE started_at > created_at + interval '1 day'`.execute(db);
  await sql`UPDATE sessions SET ended_at = GREATEST(started_at, now())
    WHERE ended_at > now() + interval '1 day'`.execute(db);
}

// Times put back are not put forward again.
export async function down(): Promise<void> {}
