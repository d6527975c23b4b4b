// Heatmaps (docs/decisions.md "Heatmaps"): each session's share of its pages' click and scroll
// maps, summed by the maps so they never read events. Rows per (session, page, band, day): its
// views and deepest point; and per element and grid cell: its clicks, rage and dead among them.
// Both hang from their session (ON DELETE CASCADE): an erasure, a deletion or the retention sweep
// takes the session's share with it. A stored batch queues its session (a trigger, so no ingest
// path can miss it); a background step derives a queued session from its stored batches once it
// is quiet, or at least every 10 minutes while it records. Sessions stored before this migration
// are queued by it (the backfill: the queue is where it stands, so it resumes wherever it stopped).
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
  `CREATE TABLE heatmap_queue (
     project_id text NOT NULL,
     session_external_id text NOT NULL,
     queued_at timestamptz NOT NULL DEFAULT now(),
     due_at timestamptz NOT NULL,
     claimed_until timestamptz,
     PRIMARY KEY (project_id, session_external_id)
   )`,
  `CREATE INDEX heatmap_queue_due_idx ON heatmap_queue (due_at)`,
  `CREATE INDEX heatmap_queue_queued_idx ON heatmap_queue (queued_at)`,
  `CREATE FUNCTION heatmap_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO heatmap_queue (project_id, session_external_id, due_at)
     VALUES (NEW.project_id, NEW.session_external_id, now() + interval '1 minute')
     ON CONFLICT (project_id, session_external_id) DO UPDATE SET due_at = EXCLUDED.due_at;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER event_batches_heatmap_enqueue AFTER INSERT ON event_batches
   FOR EACH ROW EXECUTE FUNCTION heatmap_enqueue()`,
  `CREATE TABLE heatmap_views (
     session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     path text NOT NULL CHECK (octet_length(path) <= 1024),
     band text NOT NULL CHECK (band IN ('narrow', 'medium', 'wide')),
     day date NOT NULL,
     views integer NOT NULL,
     depth_px integer NOT NULL,
     fold_px integer NOT NULL
   )`,
  `CREATE INDEX heatmap_views_session_idx ON heatmap_views (session_id)`,
  `CREATE INDEX heatmap_views_page_idx ON heatmap_views (project_id, path, band, day)
   INCLUDE (session_id, depth_px, fold_px)`,
  `CREATE INDEX heatmap_views_day_idx ON heatmap_views (project_id, day)
   INCLUDE (path, views, session_id)`,
  `CREATE TABLE heatmap_clicks (
     session_id text NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
     project_id text NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
     path text NOT NULL CHECK (octet_length(path) <= 1024),
     band text NOT NULL CHECK (band IN ('narrow', 'medium', 'wide')),
     day date NOT NULL,
     selector text NOT NULL CHECK (octet_length(selector) <= 1024),
     cell_x smallint NOT NULL CHECK (cell_x BETWEEN 0 AND 99),
     cell_y integer NOT NULL CHECK (cell_y >= 0),
     clicks integer NOT NULL,
     rage integer NOT NULL,
     dead integer NOT NULL
   )`,
  `CREATE INDEX heatmap_clicks_session_idx ON heatmap_clicks (session_id)`,
  `CREATE INDEX heatmap_clicks_page_idx ON heatmap_clicks (project_id, path, band, day)
   INCLUDE (session_id, selector, cell_x, cell_y, clicks, rage, dead)`,
  `CREATE INDEX heatmap_clicks_selector_idx ON heatmap_clicks (selector, session_id)`,
  // The backfill: every session stored before this migration, due at once.
  `INSERT INTO heatmap_queue (project_id, session_external_id, due_at)
   SELECT project_id, external_id, now() FROM sessions
   ON CONFLICT DO NOTHING`,
];

const DOWN = [
  `DROP TABLE heatmap_clicks`,
  `DROP TABLE heatmap_views`,
  `DROP TRIGGER event_batches_heatmap_enqueue ON event_batches`,
  `DROP FUNCTION heatmap_enqueue()`,
  `DROP TABLE heatmap_queue`,
];
