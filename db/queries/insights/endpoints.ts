// The insights' failing endpoints: `network_error` markers of the range's days (found through
// markers_network_errors_idx, which carries no payload since migration 0029: each row's data is
// read from the table) grouped by endpoint (method + folded path, written by ingest), ranked by
// the sessions that met them.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import type { InsightsScope } from "./insights.ts";

export interface EndpointRow {
  endpoint: string;
  sessions: number;
  failures: number;
  last_status: number;
  last_ts: number;
}

const TOP = 10;

export async function topFailingEndpoints(
  db: Kysely<Database>,
  scope: InsightsScope,
): Promise<EndpointRow[]> {
  const projects = scope.projectIds
    ? sql`AND s.project_id IN (${sql.join(scope.projectIds)})`
    : sql``;
  const { rows } = await sql<EndpointRow & { last_ts: string }>`
    SELECT m.data ->> 'endpoint' AS endpoint, count(DISTINCT m.session_id)::integer AS sessions,
      count(*)::integer AS failures, max(m.ts) AS last_ts,
      (array_agg((m.data ->> 'status')::integer ORDER BY m.ts DESC))[1] AS last_status
    FROM markers m
    JOIN sessions s ON s.id = m.session_id
    WHERE m.kind = 'network_error' AND m.session_created_at >= ${scope.since}
      AND s.organization_id = ${scope.organizationId} ${projects}
      AND m.data ->> 'endpoint' IS NOT NULL
    GROUP BY 1
    ORDER BY sessions DESC, failures DESC, last_ts DESC
    LIMIT ${TOP}
  `.execute(db);
  return rows.map((r) => ({ ...r, last_ts: Number(r.last_ts) }));
}
