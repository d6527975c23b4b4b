// The alert evaluation's count (docs/decisions.md "Alerts") on the seeded database: the back-fill
// of the rollup (migration 0039) over the seeded markers, then each rule's count at 5-minute,
// 1-hour and 1-day windows, before (0038's reading of the signal markers, partition-pruned) and
// after (the per-minute rollup), as ratios of one run: a seeded project (signals in 2–6 % of its
// sessions) and a heavy one (100,000 sessions in the day, every one with a rage click).
import postgres from "postgres";
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { openDb } from "@/db/client.ts";
import { backfillAlertSignals } from "@/db/queries/alerts/backfill.ts";
import { groupsOverThreshold } from "@/db/queries/alerts/evaluate.ts";
import { markerCountReference } from "@/tests/alerts/marker_count_reference.ts";
import { percentile } from "@/bench/stats.ts";
import { replaceSection } from "@/bench/results_section.ts";
import {
  HEAVY_PROJECT,
  heavyRowsLeft,
  removeHeavyProject,
  seedHeavyProject,
} from "./alerts_seed.ts";
import { projectId } from "./seed.ts";

const MIN = 60_000;
const DAY_MS = 86_400_000;
const WINDOWS = [5, 60, 1440];
/** The budget per rule evaluation at a million sessions, whatever the window. */
export const ALERT_TARGET_MS = 50;

interface Rule {
  project_id: string;
  signal: string;
  group_by: string | null;
  threshold: number;
}
interface Timing {
  p50: number;
  p95: number;
  groups: number;
  top: number;
}
export interface AlertCase {
  name: string;
  windowMinutes: number;
  before: Timing;
  after: Timing;
  /** The same groups and counts before and after. */
  same: boolean;
}
export interface AlertsResult {
  backfill: { seconds: number; steps: number; rows: number };
  heavy: { sessions: number; markers: number; markerSeconds: number; removeSeconds: number };
  cases: AlertCase[];
  leftAfterRemoval: number;
}

const RULES: [string, Rule][] = [
  ["seeded p0: rage_click by page", rule(projectId(0), "rage_click", "page")],
  ["seeded p0: dead_click by selector", rule(projectId(0), "dead_click", "selector")],
  ["seeded p0: error by error_group", rule(projectId(0), "error", "error_group")],
  ["seeded p0: error, no group", rule(projectId(0), "error", null)],
  ["heavy: rage_click by page", rule(HEAVY_PROJECT, "rage_click", "page")],
  ["heavy: rage_click by selector", rule(HEAVY_PROJECT, "rage_click", "selector")],
  ["heavy: rage_click, no group", rule(HEAVY_PROJECT, "rage_click", null)],
];

/** Threshold 1: every group is counted and linked, the most work a rule can ask. */
function rule(project_id: string, signal: string, group_by: string | null): Rule {
  return { project_id, signal, group_by, threshold: 1 };
}

async function timed(
  db: Kysely<Database>,
  reps: number,
  warmup: number,
  run: (tx: Kysely<Database>) => Promise<{ group_key: string; count: number }[]>,
): Promise<Timing & { result: string }> {
  const times: number[] = [];
  let result: { group_key: string; count: number }[] = [];
  for (let i = 0; i < reps + warmup; i++) {
    const started = performance.now();
    result = await db.transaction().execute(async (tx) => {
      await sql`SET LOCAL max_parallel_workers_per_gather = 0`.execute(tx);
      return await run(tx);
    });
    if (i >= warmup) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    groups: result.length,
    top: result[0]?.count ?? 0,
    result: JSON.stringify(result.map((g) => [g.group_key, g.count])),
  };
}

export async function measureAlerts(
  url: string,
  options: { heavySessions: number; reps: number; log: (step: string) => void },
): Promise<AlertsResult> {
  const raw = postgres(url, { max: 1, onnotice: () => {} });
  const db = await openDb({ kind: "postgres", url, max: 2 });
  try {
    options.log("alerts: back-filling the rollup over the seeded markers");
    const started = performance.now();
    let steps = 0;
    while (!await backfillAlertSignals(db.kysely, { chunk: 20_000, steps: 1 })) steps++;
    const backfillSeconds = (performance.now() - started) / 1000;
    await raw.unsafe("ANALYZE alert_signal_minutes");
    const [{ rows }] = await raw<{ rows: number }[]>`
      SELECT count(*)::integer AS rows FROM alert_signal_minutes`;
    options.log(`alerts: back-fill ${backfillSeconds.toFixed(1)} s, ${steps} steps, ${rows} rows`);
    options.log(`alerts: the heavy project's ${options.heavySessions} sessions`);
    const seeded = await seedHeavyProject(raw, options.heavySessions);
    const cases: AlertCase[] = [];
    let removeSeconds = NaN;
    const toMinute = Math.floor(Date.now() / MIN);
    try {
      for (const [name, r] of RULES) {
        for (const windowMinutes of WINDOWS) {
          const from = toMinute - windowMinutes;
          // the markers' reading of the heavy project's day takes seconds: once, cold
          const once = r.project_id === HEAVY_PROJECT && windowMinutes === 1440;
          const before = await timed(
            db.kysely,
            once ? 1 : Math.max(3, Math.floor(options.reps / 4)),
            once ? 0 : 1,
            (tx) =>
              markerCountReference(
                tx,
                r,
                from * MIN,
                toMinute * MIN,
                new Date(from * MIN - DAY_MS),
              ),
          );
          const after = await timed(
            db.kysely,
            options.reps,
            2,
            (tx) => groupsOverThreshold(tx, r, from, toMinute),
          );
          cases.push({ name, windowMinutes, before, after, same: before.result === after.result });
          options.log(
            `alerts: ${name}, ${windowMinutes} min: before p50 ${before.p50.toFixed(1)} ms, ` +
              `after p50 ${after.p50.toFixed(1)} ms, p95 ${after.p95.toFixed(1)} ms`,
          );
        }
      }
    } finally {
      options.log("alerts: removing the heavy project");
      removeSeconds = await removeHeavyProject(raw);
    }
    return {
      backfill: { seconds: backfillSeconds, steps: steps + 1, rows },
      heavy: {
        sessions: options.heavySessions,
        markers: seeded.markers,
        markerSeconds: seeded.markerSeconds,
        removeSeconds,
      },
      cases,
      leftAfterRemoval: await heavyRowsLeft(raw),
    };
  } finally {
    await db.close();
    await raw.end();
  }
}

const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);

export function alertsMarkdown(result: AlertsResult, header: string): string {
  const lines = [
    "## Alert evaluation",
    "",
    header,
    "",
    `Back-fill of the rollup (migration 0039) over the seeded markers: ` +
    `${
      result.backfill.seconds.toFixed(1)
    } s in ${result.backfill.steps} steps of 20,000 markers, ` +
    `${result.backfill.rows.toLocaleString("en")} rows. Heavy project: ` +
    `${result.heavy.sessions.toLocaleString("en")} sessions created over the last 24 h, ` +
    `${result.heavy.markers.toLocaleString("en")} rage-click markers inserted in ` +
    `${result.heavy.markerSeconds.toFixed(1)} s (one statement, every trigger on markers), its ` +
    `sessions deleted in ${result.heavy.removeSeconds.toFixed(1)} s, ` +
    `${result.leftAfterRemoval} rollup rows left after.`,
    "",
    "Each rule's count in a transaction (threshold 1: every group counted and linked), sequential, " +
    "warm; before: 0038's reading of the window's signal markers (partition-pruned to sessions " +
    "created since a day before the window); after: the rollups' counts of the window's whole " +
    "hours and end minutes and its late sessions, then each group's link candidates and their own " +
    "markers. `same`: identical groups and counts.",
    "",
    `| rule | window | groups | top count | before p50 ms | before p95 ms | after p50 ms | ` +
    `after p95 ms | before / after (p50) | ≤ ${ALERT_TARGET_MS} ms (p95)? | same |`,
    "| --- | --: | --: | --: | --: | --: | --: | --: | --: | --- | --- |",
  ];
  for (const c of result.cases) {
    lines.push(
      `| ${c.name} | ${c.windowMinutes} min | ${c.after.groups} | ${c.after.top} | ` +
        `${ms(c.before.p50)} | ${ms(c.before.p95)} | ${ms(c.after.p50)} | ${ms(c.after.p95)} | ` +
        `${(c.before.p50 / c.after.p50).toFixed(1)}× | ` +
        `${c.after.p95 <= ALERT_TARGET_MS ? "yes" : "**no**"} | ${c.same ? "yes" : "**no**"} |`,
    );
  }
  return lines.join("\n");
}

export async function writeAlertsSection(markdown: string): Promise<void> {
  const markers = { begin: "<!-- queries-alerts:begin -->", end: "<!-- queries-alerts:end -->" };
  await replaceSection(
    new URL("../RESULTS.md", import.meta.url),
    markers,
    `${markers.begin}\n${markdown}\n${markers.end}`,
  );
}
