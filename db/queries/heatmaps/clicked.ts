// The sessions list narrowed by the heatmaps' clicks (migrations 0040, 0041): sessions with a click
// on an element (`clicked=`, heatmap_clicks_selector_idx) or in a grid cell of a page
// (`clickedCell=`, heatmap_clicks_page_idx per project of the organization), and where each one's
// replay opens: its first such click, in ms from the session's start (the replay's `?t=`).
import { type Expression, type RawBuilder, sql, type SqlBool } from "kysely";

export interface ClickedSearch {
  /** A selector as the maps name elements. */
  clicked?: string | null;
  /** A cell of a page's grid in a band. */
  clickedCell?: { path: string; band: string; x: number; y: number } | null;
}

/** What a `heatmap_clicks hc` row must hold to count, joined by AND; empty when nothing asked. */
function rowConditions(organizationId: string, s: ClickedSearch): RawBuilder<SqlBool>[] {
  const out: RawBuilder<SqlBool>[] = [];
  if (s.clicked) out.push(sql`hc.selector = ${s.clicked}`);
  const cell = s.clickedCell;
  if (cell) {
    out.push(sql`hc.project_id IN (SELECT p.id FROM projects p
      WHERE p.organization_id = ${organizationId})`);
    out.push(sql`hc.path = ${cell.path} AND hc.band = ${cell.band}`);
    out.push(sql`hc.cell_x = ${cell.x} AND hc.cell_y = ${cell.y}`);
  }
  return out;
}

/** The conditions on `sessions`: one per filter, so both must hold when both are asked. */
export function clickedConditions(organizationId: string, s: ClickedSearch): Expression<SqlBool>[] {
  const each: ClickedSearch[] = [];
  if (s.clicked) each.push({ clicked: s.clicked });
  if (s.clickedCell) each.push({ clickedCell: s.clickedCell });
  return each.map((one) =>
    sql<SqlBool>`sessions.id IN (SELECT hc.session_id FROM heatmap_clicks hc
      WHERE ${sql.join(rowConditions(organizationId, one), sql` AND `)} AND hc.clicks > 0)`
  );
}

/**
 * The first click matching every asked filter, in ms from `sessions.started_at` (0 at the least);
 * null when no row knows its time (derived before 0041: the replay opens at the start). Null
 * when nothing is asked. Read per listed session through heatmap_clicks_session_idx.
 */
export function clickedMoment(
  organizationId: string,
  s: ClickedSearch,
): RawBuilder<number | null> | null {
  const where = rowConditions(organizationId, s);
  if (!where.length) return null;
  // GREATEST and LEAST skip nulls: the rows without a time stay null through the CASE
  const first = sql`min(hc.first_ms) - (extract(epoch FROM sessions.started_at) * 1000)::bigint`;
  return sql<number | null>`(SELECT CASE WHEN min(hc.first_ms) IS NOT NULL
      THEN GREATEST(0, LEAST(2147483647, ${first}))::integer END
    FROM heatmap_clicks hc WHERE hc.session_id = sessions.id
      AND ${sql.join(where, sql` AND `)} AND hc.clicks > 0)`;
}
