// The heatmaps' map reads (docs/decisions.md "Heatmaps") on the seeded database (a million
// sessions): one page viewed by 10,000 sessions of a project with 200,000 clicks over 7 days (the
// target), beside one view and one click row of another page for every other seeded session (what
// the indexes must step over), then each map as the API answers it (total sessions + the grid, the
// ranked elements, the scroll depths) and the pages list, timed over repetitions in one run.
// The sessions' shares are written as rows directly: deriving them is the background step's cost,
// not a map's.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { openDb } from "@/db/client.ts";
import {
  gridCells,
  type MapScope,
  rankedElements,
  sessionDepths,
  topPages,
  totalSessions,
} from "@/db/queries/heatmaps/map.ts";
import { percentile } from "@/bench/stats.ts";
import { replaceSection } from "@/bench/results_section.ts";
import { projectId } from "./seed.ts";

export const HEATMAP_TARGET_MS = 300;
const PAGE = "/bench/products/:id";
const NOISE = "/bench/home";
/** Per page session: 10 element × cell rows of 2 clicks each (200,000 clicks over 10,000). */
const ROWS_PER_SESSION = 10;
const CLICKS_PER_ROW = 2;

export interface HeatmapCase {
  name: string;
  p50: number;
  p95: number;
  rows: number;
}
export interface HeatmapsResult {
  seed: {
    seconds: number;
    pageSessions: number;
    clicks: number;
    viewRows: number;
    clickRows: number;
  };
  cases: HeatmapCase[];
}

const day = (offset: number) =>
  new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);

async function seedShares(db: Kysely<Database>, pageSessions: number) {
  const project = projectId(0);
  await sql`DELETE FROM heatmap_clicks WHERE path IN (${PAGE}, ${NOISE})`.execute(db);
  await sql`DELETE FROM heatmap_views WHERE path IN (${PAGE}, ${NOISE})`.execute(db);
  // The page's sessions: the project's first ones by id (each statement names them again: the
  // pool's connections share no temporary table).
  const page = sql`(SELECT id, project_id FROM sessions WHERE project_id = ${project}
    ORDER BY id LIMIT ${pageSessions})`;
  // Views over the last 7 days; depths 900–3,899 px.
  await sql`INSERT INTO heatmap_views
    SELECT id, project_id, ${PAGE}, 'wide', (current_date - (abs(hashtext(id)) % 7)),
      1, 900 + abs(hashtext(id || 'd')) % 3000, 900
    FROM ${page} s`.execute(db);
  await sql`INSERT INTO heatmap_clicks
    SELECT s.id, s.project_id, ${PAGE}, 'wide', (current_date - (abs(hashtext(s.id)) % 7)),
      'main > section.card:nth-of-type(' || (k % 40) || ') > button.action',
      (k * 7 + abs(hashtext(s.id)) % 5) % 100, 10 + (k * 13) % 150,
      ${CLICKS_PER_ROW}, CASE WHEN k = 1 THEN 1 ELSE 0 END, CASE WHEN k = 2 THEN 1 ELSE 0 END
    FROM ${page} s, generate_series(1, ${ROWS_PER_SESSION}) k`.execute(db);
  // Every other seeded session (of the seed's own projects: another benchmark may be deleting
  // its own meanwhile): a view and a click of another page of its project.
  const others = sql`(SELECT id, project_id FROM sessions WHERE project_id LIKE 'bench-p%'
    AND id NOT IN (SELECT id FROM ${page} p))`;
  await sql`INSERT INTO heatmap_views
    SELECT id, project_id, ${NOISE}, 'wide', (current_date - (abs(hashtext(id)) % 7)), 1, 1800, 900
    FROM ${others} s`.execute(db);
  await sql`INSERT INTO heatmap_clicks
    SELECT id, project_id, ${NOISE}, 'wide', (current_date - (abs(hashtext(id)) % 7)),
      'a#signup', 50, 20, 1, 0, 0
    FROM ${others} s`.execute(db);
  await sql`ANALYZE heatmap_views`.execute(db);
  await sql`ANALYZE heatmap_clicks`.execute(db);
  const count = async (table: "heatmap_views" | "heatmap_clicks") =>
    Number(
      (await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db))
        .rows[0].n,
    );
  return { viewRows: await count("heatmap_views"), clickRows: await count("heatmap_clicks") };
}

async function time(reps: number, run: () => Promise<number>) {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < reps + 2; i++) {
    const started = performance.now();
    rows = await run();
    if (i >= 2) times.push(performance.now() - started); // two warm-ups
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), rows };
}

export async function measureHeatmaps(
  url: string,
  options: { pageSessions: number; reps: number; log: (step: string) => void },
): Promise<HeatmapsResult> {
  const db = await openDb({ kind: "postgres", url, max: 2 });
  try {
    options.log("heatmaps: seeding the sessions' shares");
    const started = performance.now();
    const rows = await seedShares(db.kysely, options.pageSessions);
    const seconds = (performance.now() - started) / 1000;
    const scope: MapScope = {
      projectId: projectId(0),
      path: PAGE,
      band: "wide",
      from: day(6),
      to: day(0),
      sessions: [],
    };
    const k = db.kysely;
    const cases: HeatmapCase[] = [];
    const run = async (name: string, work: () => Promise<number>) => {
      options.log(`heatmaps: ${name}`);
      cases.push({ name, ...await time(options.reps, work) });
    };
    await run("clicks by cell (total sessions + grid)", async () => {
      await totalSessions(k, scope);
      return (await gridCells(k, scope, "clicks")).length;
    });
    await run("clicks by element (total sessions + ranked)", async () => {
      await totalSessions(k, scope);
      return (await rankedElements(k, scope, "clicks", 100)).length;
    });
    await run("rage by cell", async () => {
      await totalSessions(k, scope);
      return (await gridCells(k, scope, "rage")).length;
    });
    await run("scroll depth (total sessions + depths)", async () => {
      await totalSessions(k, scope);
      return (await sessionDepths(k, scope)).length;
    });
    await run(
      "pages of the project",
      async () =>
        (await topPages(k, { projectId: projectId(0), from: day(6), to: day(0) }, 50)).length,
    );
    const clicks = options.pageSessions * ROWS_PER_SESSION * CLICKS_PER_ROW;
    return {
      seed: { seconds, pageSessions: options.pageSessions, clicks, ...rows },
      cases,
    };
  } finally {
    await db.close();
  }
}

export function heatmapsMarkdown(result: HeatmapsResult, context: string): string {
  const { seed } = result;
  const lines = [
    BEGIN,
    "## Heatmaps: a map over 10,000 sessions and 200,000 clicks of one page (issue 45)",
    "",
    context,
    "",
    `Seeded in ${seed.seconds.toFixed(1)} s: ${seed.pageSessions.toLocaleString("en")} sessions ` +
    `and ${seed.clicks.toLocaleString("en")} clicks of the page, ` +
    `${seed.viewRows.toLocaleString("en")} view rows and ${seed.clickRows.toLocaleString("en")} ` +
    "click rows in all. Each map as the API reads it (the database's part; JSON aside), " +
    `target ≤ ${HEATMAP_TARGET_MS} ms:`,
    "",
    "| map | p50 ms | p95 ms | rows | within target |",
    "| --- | ---: | ---: | ---: | --- |",
    ...result.cases.map((c) =>
      `| ${c.name} | ${c.p50.toFixed(1)} | ${c.p95.toFixed(1)} | ${c.rows} | ` +
      `${c.p95 <= HEATMAP_TARGET_MS ? "yes" : "**no**"} |`
    ),
    END,
  ];
  return lines.join("\n");
}

const BEGIN = "<!-- bench:queries heatmaps -->";
const END = "<!-- /bench:queries heatmaps -->";

export async function writeHeatmapsSection(markdown: string): Promise<void> {
  await replaceSection(
    new URL("../RESULTS.md", import.meta.url),
    { begin: BEGIN, end: END },
    markdown,
  );
}
