// The sessions list sorts by when a session started (its first event), not when its first batch
// arrived: keyset pages on (organization_id | project_id, started_at DESC, id DESC). The project
// index by created_at served only that sort, so it goes; the organization one still bounds the
// KPI strip's partial hour.
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX sessions_org_started_idx ON sessions (organization_id, started_at DESC, id DESC)`
    .execute(db);
  await sql`CREATE INDEX sessions_project_started_idx ON sessions (project_id, started_at DESC, id DESC)`
    .execute(db);
  await sql`DROP INDEX sessions_project_created_idx`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX sessions_project_created_idx ON sessions (project_id, created_at DESC, id DESC)`
    .execute(db);
  await sql`DROP INDEX sessions_project_started_idx`.execute(db);
  await sql`DROP INDEX sessions_org_started_idx`.execute(db);
}
