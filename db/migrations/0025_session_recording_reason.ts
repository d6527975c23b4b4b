// Why a session was recorded: `sampled` from its start, or started by a trigger (an
// error, a rage or dead click, `Playhead.trigger()`) at `triggered_at` (epoch ms, the trigger
// event's own time). Sessions stored before are `sampled`: a constant default adds the column
// without rewriting the table. Triggered sessions are few, so the `reason` filter of the sessions
// list reads a partial index in the list's order.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of UP) await sql.raw(statement).execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const statement of DOWN) await sql.raw(statement).execute(db);
}

const UP = [
  `ALTER TABLE sessions
     ADD COLUMN recording_reason text NOT NULL DEFAULT 'sampled'
       CHECK (recording_reason IN ('sampled', 'error', 'rage_click', 'dead_click', 'manual')),
     ADD COLUMN triggered_at bigint,
     ADD CONSTRAINT sessions_triggered_reason_check
       CHECK ((recording_reason = 'sampled') = (triggered_at IS NULL))`,
  `CREATE INDEX sessions_org_triggered_idx ON sessions
     (organization_id, recording_reason, started_at DESC, id DESC)
     WHERE recording_reason <> 'sampled'`,
];

const DOWN = [
  `DROP INDEX sessions_org_triggered_idx`,
  `ALTER TABLE sessions DROP CONSTRAINT sessions_triggered_reason_check,
     DROP COLUMN recording_reason, DROP COLUMN triggered_at`,
];
