// The query benchmark's report: printed always, written into RESULTS.md on full runs; says whether
// anything failed (a non-200 read, a short events body, a failed cleanup or ingest request).
import type { CleanupResult } from "./cleanup.ts";
import type { EventsResult } from "./events.ts";
import { type CaseResult, UNDER_INGEST_FACTOR } from "./latency.ts";
import type { Window } from "./ingest_load.ts";
import {
  casesTable,
  cleanupTable,
  eventsTable,
  plansSection,
  underIngestLine,
  writeSection,
} from "./report.ts";
import type { SeedSizes } from "./seed.ts";

export interface Run {
  smoke: boolean;
  startedAt: Date;
  loads: string[];
  sizes: SeedSizes;
  requests: number;
  seeding: Record<string, { seeded: boolean; seededAt: Date; seconds: number }>;
  results: CaseResult[];
  /** The reads' second pass with ingest behind them. */
  ingest: { concurrency: number; window: Window; failures: string[] } | undefined;
  plans: { name: string; statements: { sql: string; plan: string }[] }[];
  events: EventsResult | undefined;
  cleanup: CleanupResult | undefined;
}

/** Prints (and on a full run writes) the report; resolves to true when something failed. */
export async function report(run: Run): Promise<boolean> {
  const problems = [
    ...run.results.flatMap((r) => r.errors.map((e) => `${r.name}: ${e}`)),
    ...(run.events?.runs ?? []).filter((r) => r.status !== 200 || r.bytes < run.events!.storedBytes)
      .map((r) => `events: status ${r.status}, ${r.bytes} bytes`),
    ...(run.cleanup && run.cleanup.status !== 200 ? [`cleanup: status ${run.cleanup.status}`] : []),
    ...(run.cleanup?.failures ?? []).map((f) => `ingest during cleanup: ${f}`),
    ...(run.ingest?.failures ?? []).map((f) => `ingest during the reads: ${f}`),
  ];
  const cpu = /^model name\s*:\s*(.*)$/m.exec(Deno.readTextFileSync("/proc/cpuinfo"))?.[1];
  const seeding = Object.entries(run.seeding).map(([name, s]) =>
    s.seeded
      ? `${name} seeded in this run (${s.seconds.toFixed(0)} s)`
      : `${name} reused (seeded ${s.seededAt.toISOString()})`
  ).join("; ");
  const markdown = [
    "## Dashboard queries",
    "",
    `${run.startedAt.toISOString()} · \`deno task bench:queries${
      run.smoke ? " --smoke" : ""
    }\` · ` +
    `${cpu}, ${navigator.hardwareConcurrency} cores, ` +
    `${Math.round(Deno.systemMemoryInfo().total / 2 ** 30)} GB, Deno ${Deno.version.deno}, ` +
    `PostgreSQL on 127.0.0.1 (stock settings). Load average (1/5/15 min) at start, after the ` +
    `reads, at the end: ${run.loads.join(" · ")}.`,
    "",
    `Data: one organization, 10 projects, ${run.sizes.trackedUsers.toLocaleString("en")} tracked ` +
    `users, ${run.sizes.sessions.toLocaleString("en")} sessions over the last 7 days (1–3 url ` +
    `markers and 1–3 small batches each), one tracked user with ` +
    `${run.sizes.hotSessions.toLocaleString("en")} sessions. ${seeding}.`,
    "",
    "### Reads (client-side and server-side latency over loopback, server in production mode)",
    "",
    "Server p95: the answer's `Server-Timing` (the app's middleware to the answer's head: the " +
    "targets' server-side latency, without the HTTP parsing and the wait for the server's thread " +
    "before it). Under ingest, `met?` is the server-side p95 within " +
    `${UNDER_INGEST_FACTOR}× of quiet. ` +
    "SQL ms: the summed `Execution Time` of the statements the route's `core/` function issues, " +
    "under `EXPLAIN ANALYZE`, run once after the timed requests (the cookie check's viewer lookup " +
    "is not included). The gap to p50 is the HTTP, auth, JSON and driver work, and waiting for a " +
    "CPU; the floor row is the cookie check and one small row.",
    "",
    casesTable(run.results, run.requests),
    "",
    ...(run.ingest ? [underIngestLine(run.ingest), ""] : []),
    "### Events of one large session",
    "",
    run.events ? eventsTable(run.events) : "not measured",
    "",
    `### Daily cleanup of ${run.sizes.sessions.toLocaleString("en")} expired sessions under ingest`,
    "",
    run.cleanup ? cleanupTable(run.cleanup) : "not measured",
    "",
    "### Plans of the cases over target",
    "",
    plansSection(run.plans),
  ].join("\n");
  console.log(markdown);
  if (!run.smoke) await writeSection(markdown);
  if (problems.length) console.error(`problems:\n${problems.join("\n")}`);
  return problems.length > 0;
}
