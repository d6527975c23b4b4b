// The alert count as it was before the per-minute rollup (migration 0038's reading of the signal
// markers themselves), kept as the tests' reference: the rollup must give exactly its groups,
// counts and session links for a window of whole minutes.
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

const GROUP_EXPRESSION: Record<string, RawBuilder<string>> = {
  page: sql`signal_page(s.url_ts, s.url_pathnames, m.ts)`,
  selector: sql`m.data ->> 'selector'`,
  error_group: sql`error_fingerprint(m.data)`,
  endpoint: sql`m.data ->> 'endpoint'`,
};

export interface ReferenceGroup {
  group_key: string;
  count: number;
  sessions: { id: string; offset: number }[];
}

/**
 * The groups with at least `threshold` distinct sessions with a `signal` marker in [start, end).
 * `createdSince`: 0038's partition pruning (sessions created since then only), as the benchmark's
 * "before" measures it.
 */
export async function markerCountReference(
  db: Kysely<Database>,
  rule: { project_id: string; signal: string; group_by: string | null; threshold: number },
  start: number,
  end: number,
  createdSince?: Date,
): Promise<ReferenceGroup[]> {
  const group = rule.group_by ? GROUP_EXPRESSION[rule.group_by] : sql<string>`''`;
  const pruned = createdSince ? sql`AND m.session_created_at >= ${createdSince}` : sql``;
  const { rows } = await sql<
    { group_key: string; count: number; ids: string[]; offsets: string[] }
  >`
    WITH sig AS (
      SELECT DISTINCT ON (g, m.session_id) ${group} AS g, m.session_id, m.ts,
        m.ts - (extract(epoch FROM s.started_at) * 1000)::bigint AS offset_ms
      FROM markers m JOIN sessions s ON s.id = m.session_id
      WHERE m.kind = ${rule.signal} AND m.ts >= ${start} AND m.ts < ${end} ${pruned}
        AND s.project_id = ${rule.project_id}
      ORDER BY g, m.session_id, m.ts DESC
    )
    SELECT g AS group_key, count(*)::integer AS count,
      (array_agg(session_id ORDER BY ts DESC, session_id))[1:3] AS ids,
      (array_agg(offset_ms::text ORDER BY ts DESC, session_id))[1:3] AS offsets
    FROM sig WHERE g IS NOT NULL
    GROUP BY g HAVING count(*) >= ${rule.threshold}
    ORDER BY count DESC, g LIMIT 100`.execute(db);
  return rows.map((r) => ({
    group_key: r.group_key,
    count: r.count,
    sessions: r.ids.map((id, i) => ({ id, offset: Math.max(0, Number(r.offsets[i])) })),
  }));
}
