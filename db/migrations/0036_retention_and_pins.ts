// Retention per project and pinned sessions (docs/decisions.md "Retention per project"):
// - projects.retention_days: how many days the daily cleanup keeps the project's sessions (1–365,
//   7 by default, which was everyone's retention before);
// - sessions.pinned_at: a pinned session outlives its project's retention (an erasure still takes
//   it); the partial index serves the sessions list's `pinned=true` and the cleanup's pins;
// - stored_objects.pinned: an object holding one pinned session's bytes, moved out of its day's
//   packed object before that day is deleted; it lives under `pinned/`, outside the day prefixes
//   and their lifecycle rule, and goes when its session does.
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
  `ALTER TABLE projects ADD COLUMN retention_days integer NOT NULL DEFAULT 7
     CONSTRAINT projects_retention_days_check CHECK (retention_days BETWEEN 1 AND 365)`,
  `ALTER TABLE sessions ADD COLUMN pinned_at timestamptz`,
  `CREATE INDEX sessions_pinned_idx ON sessions (project_id, created_at)
     WHERE pinned_at IS NOT NULL`,
  `ALTER TABLE stored_objects ADD COLUMN pinned boolean NOT NULL DEFAULT false`,
];

const DOWN = [
  `ALTER TABLE stored_objects DROP COLUMN pinned`,
  `DROP INDEX sessions_pinned_idx`,
  `ALTER TABLE sessions DROP COLUMN pinned_at`,
  `ALTER TABLE projects DROP COLUMN retention_days`,
];
