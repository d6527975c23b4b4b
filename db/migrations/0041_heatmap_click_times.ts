// Heatmap click times (docs/decisions.md "Heatmaps"): each (session, page, band, day, element,
// cell) row of heatmap_clicks keeps when its first click was (epoch ms, the recording's own
// timestamps), so a session listed under `clicked=` opens its replay at that click. A row derived
// before this migration has none (null: its replay opens at the start); the sessions that have rows
// are queued again, so the background step fills them in (the queue is where it stands).
import { type Kysely, sql } from "kysely";

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE heatmap_clicks ADD COLUMN first_ms bigint`.execute(db);
  await sql`INSERT INTO heatmap_queue (project_id, session_external_id, due_at)
    SELECT DISTINCT s.project_id, s.external_id, now()
    FROM heatmap_clicks hc JOIN sessions s ON s.id = hc.session_id
    ON CONFLICT DO NOTHING`.execute(db);
}

// deno-lint-ignore no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE heatmap_clicks DROP COLUMN first_ms`.execute(db);
}
