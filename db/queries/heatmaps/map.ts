// The heatmaps' reads (migration 0040): sums of the sessions' shares of one page, band and range of
// days, through the covering indexes (heatmap_clicks_page_idx, heatmap_views_page_idx); the
// sessions table joins in only when the map is filtered by the sessions search's conditions.
import { type Expression, type Kysely, sql, type SqlBool } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface MapScope {
  projectId: string;
  path: string;
  band: string;
  /** UTC days, inclusive, `YYYY-MM-DD`. */
  from: string;
  to: string;
  /** The sessions search's conditions on `sessions` (db/queries/sessions/search.ts); [] for none. */
  sessions: Expression<SqlBool>[];
}

export type ClickMetric = "clicks" | "rage" | "dead";

function clicksOf(db: Kysely<Database>, s: MapScope) {
  let q = db.selectFrom("heatmap_clicks as c")
    .where("c.project_id", "=", s.projectId).where("c.path", "=", s.path)
    .where("c.band", "=", s.band).where("c.day", ">=", s.from).where("c.day", "<=", s.to);
  if (s.sessions.length) {
    q = q.innerJoin("sessions", "sessions.id", "c.session_id")
      .where((eb) => eb.and(s.sessions)) as unknown as typeof q;
  }
  return q;
}

function viewsOf(db: Kysely<Database>, s: MapScope) {
  let q = db.selectFrom("heatmap_views as v")
    .where("v.project_id", "=", s.projectId).where("v.path", "=", s.path)
    .where("v.band", "=", s.band).where("v.day", ">=", s.from).where("v.day", "<=", s.to);
  if (s.sessions.length) {
    q = q.innerJoin("sessions", "sessions.id", "v.session_id")
      .where((eb) => eb.and(s.sessions)) as unknown as typeof q;
  }
  return q;
}

export async function totalSessions(db: Kysely<Database>, s: MapScope): Promise<number> {
  const row = await viewsOf(db, s)
    .select(sql<number>`count(DISTINCT v.session_id)::integer`.as("n")).executeTakeFirst();
  return row?.n ?? 0;
}

/** Non-empty cells of the grid, by the metric's sum. */
export async function gridCells(db: Kysely<Database>, s: MapScope, metric: ClickMetric) {
  const sum = sql<number>`sum(${sql.ref(`c.${metric}`)})::integer`;
  return await clicksOf(db, s).select(["c.cell_x as x", "c.cell_y as y", sum.as("count")])
    .groupBy(["c.cell_x", "c.cell_y"]).having(sum, ">", 0)
    .orderBy("c.cell_y").orderBy("c.cell_x").execute();
}

/** Elements by the metric's sum, most first, with the box of the cells their clicks fell in. */
export async function rankedElements(
  db: Kysely<Database>,
  s: MapScope,
  metric: ClickMetric,
  limit: number,
) {
  const sum = sql<number>`sum(${sql.ref(`c.${metric}`)})::integer`;
  return await clicksOf(db, s).select([
    "c.selector",
    sum.as("count"),
    sql<number>`count(DISTINCT c.session_id) FILTER (WHERE ${sql.ref(`c.${metric}`)} > 0)::integer`
      .as("sessions"),
    sql<number>`sum(c.rage)::integer`.as("rage"),
    sql<number>`sum(c.dead)::integer`.as("dead"),
    sql<number>`min(c.cell_x)::integer`.as("min_x"),
    sql<number>`max(c.cell_x)::integer`.as("max_x"),
    sql<number>`min(c.cell_y)::integer`.as("min_y"),
    sql<number>`max(c.cell_y)::integer`.as("max_y"),
  ]).groupBy("c.selector").having(sum, ">", 0)
    .orderBy("count", "desc").orderBy("c.selector").limit(limit).execute();
}

/** Each session's deepest point and fold on the page (over its days in the range). */
export async function sessionDepths(db: Kysely<Database>, s: MapScope) {
  return await viewsOf(db, s).select([
    sql<number>`max(v.depth_px)::integer`.as("depth"),
    sql<number>`max(v.fold_px)::integer`.as("fold"),
  ]).groupBy("v.session_id").execute();
}

/** The project's pages with the most views in the range. */
export async function topPages(
  db: Kysely<Database>,
  s: Pick<MapScope, "projectId" | "from" | "to">,
  limit: number,
) {
  return await db.selectFrom("heatmap_views as v").select([
    "v.path",
    sql<number>`sum(v.views)::integer`.as("views"),
    sql<number>`count(DISTINCT v.session_id)::integer`.as("sessions"),
  ]).where("v.project_id", "=", s.projectId).where("v.day", ">=", s.from)
    .where("v.day", "<=", s.to).groupBy("v.path")
    .orderBy("views", "desc").orderBy("v.path").limit(limit).execute();
}

/** Whether the project has ever had a view of the path (an unknown one is the caller's 400). */
export async function knownPath(db: Kysely<Database>, projectId: string, path: string) {
  const row = await db.selectFrom("heatmap_views").select("path")
    .where("project_id", "=", projectId).where("path", "=", path).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The latest sessions with a view of the page in the band, newest first, with their first url. */
export async function latestSessionsOnPage(
  db: Kysely<Database>,
  s: { projectId: string; path: string; band: string },
  limit: number,
) {
  return await db.selectFrom("heatmap_views as v")
    .innerJoin("sessions", "sessions.id", "v.session_id")
    .select(["sessions.id", "sessions.url"])
    .where("v.project_id", "=", s.projectId).where("v.path", "=", s.path)
    .where("v.band", "=", s.band)
    .orderBy("sessions.started_at", "desc").limit(limit).execute();
}
