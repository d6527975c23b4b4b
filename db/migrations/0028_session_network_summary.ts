// A session's network summary, kept by ingest in the statement that stores its batch
// (docs/decisions.md "Network capture"): requests answered 5xx or failed (`network_error`
// markers), the slowest request's duration, and the web vitals' `name:rating` pairs seen
// (`lcp:poor`), so the sessions list filters on them with index reads, never the markers.
// - sessions_org_network_error_idx: the few sessions with a failing request, in list order.
// - sessions_web_vitals_idx: `vital=lcp:poor` as an array overlap.
// - markers_network_errors_idx: the insights' failing endpoints of a range of days.
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
     ADD COLUMN network_error_count integer NOT NULL DEFAULT 0,
     ADD COLUMN max_request_ms integer NOT NULL DEFAULT 0,
     ADD COLUMN web_vitals text[] NOT NULL DEFAULT '{}'`,
  `CREATE INDEX sessions_org_network_error_idx ON sessions
     (organization_id, started_at DESC, id DESC) WHERE network_error_count > 0`,
  `CREATE INDEX sessions_web_vitals_idx ON sessions USING gin (web_vitals)`,
  `CREATE INDEX markers_network_errors_idx ON markers (session_created_at)
     INCLUDE (session_id, data) WHERE kind = 'network_error'`,
];

const DOWN = [
  `DROP INDEX markers_network_errors_idx`,
  `DROP INDEX sessions_web_vitals_idx`,
  `DROP INDEX sessions_org_network_error_idx`,
  `ALTER TABLE sessions
     DROP COLUMN network_error_count,
     DROP COLUMN max_request_ms,
     DROP COLUMN web_vitals`,
];
