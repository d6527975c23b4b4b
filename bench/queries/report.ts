// Markdown for the query benchmark and its section of RESULTS.md (between its own markers; the
// other sections belong to other benchmarks and are left byte for byte).
import type { CleanupResult } from "./cleanup.ts";
import type { Window } from "./ingest_load.ts";
import type { EventsResult } from "./events.ts";
import {
  type CaseResult,
  ingestRatio,
  overTarget,
  serverIngestRatio,
  TARGET_MS,
  UNDER_INGEST_FACTOR,
} from "./latency.ts";
import { replaceSection } from "@/bench/results_section.ts";

const BEGIN = "<!-- queries:begin -->";
const END = "<!-- queries:end -->";
const RESULTS = new URL("../RESULTS.md", import.meta.url);

const ms = (n: number) => Number.isFinite(n) ? n.toFixed(n < 10 ? 1 : 0) : "–";
const mb = (bytes: number) => (bytes / 1e6).toFixed(0);

export function casesTable(results: CaseResult[], requests: number): string {
  const lines = [
    `| request (${requests} each, sequential, warm) | rows | p50 ms | p95 ms | max ms | server p95 ms | ` +
    "SQL ms | target p95 | met? | under ingest: p95 ms | × quiet | server p95 ms | × quiet | " +
    "met? (server) |",
    "| --- | --: | --: | --: | --: | --: | --: | --: | --- | --: | --: | --: | --: | --- |",
  ];
  for (const r of results) {
    const met = r.errors.length ? "error" : overTarget(r) ? "**no**" : "yes";
    const ratio = ingestRatio(r);
    const serverRatio = serverIngestRatio(r);
    const loaded = ratio === null || serverRatio === null
      ? "– | – | – | – | –"
      : `${ms(r.underIngest!.p95)} | ${ratio.toFixed(1)} | ${ms(r.underIngest!.serverP95)} | ` +
        `${serverRatio.toFixed(1)} | ${serverRatio <= UNDER_INGEST_FACTOR ? "yes" : "**no**"}`;
    lines.push(
      `| ${r.name} | ${r.rows ?? "–"} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.max)} | ` +
        `${ms(r.serverP95)} | ${r.sqlMs === null ? "–" : ms(r.sqlMs)} | ` +
        `${TARGET_MS[r.group]} ms | ${met} | ${loaded} |`,
    );
  }
  return lines.join("\n");
}

/** The background ingest of the second pass, in one sentence. */
export function underIngestLine(ingest: { concurrency: number; window: Window }): string {
  const w = ingest.window;
  return `Under ingest: the same requests again while the light ingest workload (TodoMVC, ` +
    `flushInterval 5 s) posts at concurrency ${ingest.concurrency} into project 0: ` +
    `${w.requests} ingest requests in ${w.seconds.toFixed(0)} s ` +
    `(${(w.requests / w.seconds).toFixed(0)}/s, p50 ${ms(w.p50)} ms, p95 ${ms(w.p95)} ms, ` +
    `${w.errors} errors); target: p95 within ${UNDER_INGEST_FACTOR}× of quiet.`;
}

export function eventsTable(e: EventsResult): string {
  const lines = [
    "| read | status | served MB | seconds | MB/s served | stored MB/s |",
    "| --- | --: | --: | --: | --: | --: |",
    ...e.runs.map((r, i) =>
      `| ${i + 1} | ${r.status} | ${mb(r.bytes)} | ${r.seconds.toFixed(1)} | ` +
      `${(r.bytes / 1e6 / r.seconds).toFixed(0)} | ${
        (e.storedBytes / 1e6 / r.seconds).toFixed(0)
      } |`
    ),
  ];
  return [
    `${e.batches} batches, ${mb(e.storedBytes)} MB stored (base64 in JSON on the wire).`,
    "",
    ...lines,
    "",
    `Server memory: VmRSS ${e.rssBeforeMb.toFixed(0)} MB before, ` +
    `${e.rssPeakSampledMb.toFixed(0)} MB at most during (sampled every 50 ms); ` +
    `VmHWM ${e.hwmBeforeMb.toFixed(0)} MB before, ${e.hwmAfterMb.toFixed(0)} MB after.`,
  ].join("\n");
}

const windowRow = (name: string, w: Window) =>
  `| ${name} | ${w.seconds.toFixed(1)} | ${w.requests} | ${w.errors} | ` +
  `${(w.requests / w.seconds).toFixed(0)} | ${ms(w.p50)} | ${ms(w.p95)} | ${ms(w.p99)} |`;

export function cleanupTable(c: CleanupResult): string {
  return [
    `\`GET /api/cron/daily-cleanup\`: ${c.status}, **${c.seconds.toFixed(1)} s**, deleted ` +
    `${JSON.stringify(c.counts)}. Ingest (light workload, concurrency ${c.concurrency}):`,
    "",
    "| ingest window | seconds | requests | errors | req/s | p50 ms | p95 ms | p99 ms |",
    "| --- | --: | --: | --: | --: | --: | --: | --: |",
    windowRow("before cleanup", c.before),
    windowRow("during cleanup", c.during),
    ...(c.failures.length ? ["", `Failures: ${c.failures.join("; ")}`] : []),
  ].join("\n");
}

export function plansSection(
  plans: { name: string; statements: { sql: string; plan: string }[] }[],
) {
  if (!plans.length) return "Every case met its target; no plans to show.";
  return plans.map((p) =>
    [
      `#### ${p.name}`,
      "",
      ...p.statements.flatMap((s) => ["```sql", s.sql.trim(), "```", "", "```", s.plan, "```", ""]),
    ].join("\n")
  ).join("\n");
}

/** Replaces the queries section of RESULTS.md (appended with its markers the first time). */
export async function writeSection(markdown: string): Promise<void> {
  const section = `${BEGIN}\n\n${markdown.trim()}\n\n${END}`;
  await replaceSection(RESULTS, { begin: BEGIN, end: END }, section);
}
