// With 0010 the hot user's 7-day activity reads 5,000 session rows, scattered over
// ~3,500 heap pages (27 ms of its ~60). This index carries every column that read needs, so it is
// an index-only range scan (8 ms at 1,000,000 sessions, bench:queries). Partial: anonymous sessions,
// which no activity reads, cost ingest nothing here.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX sessions_tracked_user_activity_idx ON sessions (tracked_user_id, started_at)
    INCLUDE (ended_at, duration, event_count, url_ts, url_pathnames, batch_ts, batch_events)
    WHERE tracked_user_id IS NOT NULL`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX sessions_tracked_user_activity_idx`.execute(db);
}
