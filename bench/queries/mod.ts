// `deno task bench:queries [--smoke] [--reseed] [--requests N] [--skip-cleanup] [--alerts-only]
// [--heatmaps-only]`:
// dashboard read latencies on a seeded PostgreSQL (1,000,000 sessions), events throughput of a
// ~1 GB session, the alert evaluation's count per window (./alerts.ts), and the daily cleanup of
// 1,000,000 expired sessions under ingest load, and the heatmaps' maps (./heatmaps.ts). See
// bench/README.md.
import { parseArgs } from "node:util";
import { signSession } from "@/core/auth/token.ts";
import { buildCases } from "./cases.ts";
import { type CleanupResult, measureCleanup } from "./cleanup.ts";
import { cloneDatabase, dropDatabase, ensureSeeded, urlOf } from "./db.ts";
import {
  EVENTS_BATCH_BYTES,
  type EventsResult,
  measureEvents,
  seedEventsSession,
} from "./events.ts";
import { explainable, explainPath } from "./explain.ts";
import { type CaseResult, overTarget, timeCase } from "./latency.ts";
import { report } from "./output.ts";
import { startIngestLoad, type Window } from "./ingest_load.ts";
import { ORGANIZATION_ID, OWNER_ID, projectKey, smallBatchBlob } from "./seed.ts";
import { BENCH_AUTH_SECRET, startServer } from "@/bench/server.ts";
import { alertsMarkdown, measureAlerts, writeAlertsSection } from "./alerts.ts";
import { heatmapsMarkdown, measureHeatmaps, writeHeatmapsSection } from "./heatmaps.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    smoke: { type: "boolean", default: false },
    reseed: { type: "boolean", default: false },
    requests: { type: "string" },
    "skip-cleanup": { type: "boolean", default: false },
    "alerts-only": { type: "boolean", default: false },
    "heatmaps-only": { type: "boolean", default: false },
  },
});
const smoke = args.smoke;
const SIZES = smoke
  ? { sessions: 10_000, trackedUsers: 1_000, hotSessions: 500 }
  : { sessions: 1_000_000, trackedUsers: 100_000, hotSessions: 5_000 };
const EVENTS_BATCHES = smoke ? 8 : 1024; // × 1 MiB
const REQUESTS = Number(args.requests ?? (smoke ? 5 : 50));
/** The reads again with the light ingest workload at this concurrency behind them. */
const INGEST_CONCURRENCY = 8;
const DEEP_ROWS = smoke ? 1_000 : 10_000;
const suffix = smoke ? "_smoke" : "";
const MAIN = `playhead_bench_queries${suffix}`;
const EXPIRED = `playhead_bench_queries_expired${suffix}`;
const CLEANUP = `playhead_bench_queries_cleanup${suffix}`;

const log = (message: string) =>
  console.error(`[bench ${(performance.now() / 1000).toFixed(1)} s] ${message}`);
const loadAverage = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
const startedAt = new Date();
const loads = [loadAverage()];
const blob = smallBatchBlob();

const main = await ensureSeeded(MAIN, SIZES, blob, {
  reseed: args.reseed,
  extraKey: `events:${EVENTS_BATCHES}:signals`,
  extra: (sql) => seedEventsSession(sql, EVENTS_BATCHES),
  log,
});
log(main.seeded ? `seeded ${MAIN} in ${main.seconds.toFixed(0)} s` : `reusing ${MAIN}`);
if (args["alerts-only"]) {
  await alertsRun();
  Deno.exit(0);
}
if (args["heatmaps-only"]) {
  await heatmapsRun();
  Deno.exit(0);
}
const cookie = `playhead_session=${await signSession(BENCH_AUTH_SECRET, {
  userId: OWNER_ID,
  version: 0,
})}`;
const viewer = {
  userId: OWNER_ID,
  email: "owner@bench.test",
  activeOrganizationId: ORGANIZATION_ID,
  role: "OWNER" as const,
};

const server = await startServer(urlOf(MAIN));
const results: CaseResult[] = [];
const plans: { name: string; statements: { sql: string; plan: string }[] }[] = [];
let events: EventsResult | undefined;
let ingest: { concurrency: number; window: Window; failures: string[] } | undefined;
try {
  const client = { baseUrl: server.url, cookie };
  log("walking cursors, timing the dashboard reads, then EXPLAIN ANALYZE of each");
  for (const c of await buildCases(client, DEEP_ROWS)) {
    results.push(await timeCase(client, c, REQUESTS));
    const r = results.at(-1)!;
    log(`${r.name}: p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms`);
  }
  log(`the same reads with ingest at concurrency ${INGEST_CONCURRENCY} in the background`);
  ingest = await underIngest(client);
  loads.push(loadAverage());
  // Every case's SQL time; the plans themselves only of the cases over target.
  for (const r of results.filter((r) => explainable(r.path) && !r.errors.length)) {
    const statements = await explainPath(urlOf(MAIN), viewer, r.path);
    r.sqlMs = statements.reduce((sum, s) => sum + s.ms, 0);
    if (overTarget(r)) plans.push({ name: r.name, statements });
  }
  log(`reading the ${EVENTS_BATCHES} MiB session's events twice`);
  events = await measureEvents(server.url, cookie, server.pid, {
    bytes: EVENTS_BATCHES * EVENTS_BATCH_BYTES,
    batches: EVENTS_BATCHES,
  }, 2);
} finally {
  await server.stop();
}

await alertsRun();
await heatmapsRun();

let expired = null;
let cleanup: CleanupResult | undefined;
if (!args["skip-cleanup"]) {
  expired = await ensureSeeded(EXPIRED, SIZES, blob, {
    reseed: args.reseed,
    ageDays: 8,
    maxAgeHours: Infinity,
    log,
  });
  log(
    expired.seeded ? `seeded ${EXPIRED} in ${expired.seconds.toFixed(0)} s` : `reusing ${EXPIRED}`,
  );
  cleanup = await cleanupRun();
}
loads.push(loadAverage());

const failed = await report({
  smoke,
  startedAt,
  loads,
  sizes: SIZES,
  requests: REQUESTS,
  seeding: expired ? { main, expired } : { main },
  results,
  ingest,
  plans,
  events,
  cleanup,
});
if (failed) Deno.exit(1);

/** Times every case again while ingest runs; its requests' window is the reads' span. */
async function underIngest(client: { baseUrl: string; cookie: string }) {
  const load = await startIngestLoad(client.baseUrl, projectKey(0), INGEST_CONCURRENCY);
  try {
    await new Promise((resolve) => setTimeout(resolve, load.warmAt - performance.now()));
    const from = performance.now();
    for (const r of results) {
      const loaded = await timeCase(client, r, REQUESTS);
      r.underIngest = { p50: loaded.p50, p95: loaded.p95, serverP95: loaded.serverP95 };
      r.errors.push(...loaded.errors.map((e) => `under ingest: ${e}`));
      log(
        `${r.name} under ingest: p50 ${loaded.p50.toFixed(1)} ms, p95 ${loaded.p95.toFixed(1)} ms`,
      );
    }
    const window = load.window(from, performance.now());
    await load.stop();
    return { concurrency: INGEST_CONCURRENCY, window, failures: [...load.failures] };
  } finally {
    await load.stop();
  }
}

/** The sweep on a throwaway copy of the expired database, with the server started on it. */
async function cleanupRun(): Promise<CleanupResult> {
  await cloneDatabase(EXPIRED, CLEANUP);
  log(`copied ${EXPIRED} to ${CLEANUP}`);
  try {
    const server = await startServer(urlOf(CLEANUP));
    try {
      log("cleanup under ingest load");
      return await measureCleanup(server.url, projectKey(0), {
        concurrency: 4,
        beforeSeconds: smoke ? 3 : 20,
        timeoutSeconds: smoke ? 60 : 1_800,
      });
    } finally {
      await server.stop();
    }
  } finally {
    await dropDatabase(CLEANUP);
  }
}

/** The alert evaluation's count per window on the seeded database; its own RESULTS.md section. */
async function alertsRun(): Promise<void> {
  const alertLoads = [loadAverage()];
  const result = await measureAlerts(urlOf(MAIN), {
    heavySessions: smoke ? 5_000 : 100_000,
    reps: smoke ? 5 : 20,
    log,
  });
  alertLoads.push(loadAverage());
  const markdown = alertsMarkdown(
    result,
    `${new Date().toISOString()} · \`deno task bench:queries${smoke ? " --smoke" : ""}` +
      `${args["alerts-only"] ? " --alerts-only" : ""}\` · ${SIZES.sessions.toLocaleString("en")} ` +
      `seeded sessions over 7 days, ${navigator.hardwareConcurrency} cores. Load average ` +
      `(1/5/15 min) before and after: ${alertLoads.join(" · ")}.`,
  );
  console.log(markdown);
  if (!smoke) await writeAlertsSection(markdown);
}

async function heatmapsRun(): Promise<void> {
  const heatmapLoads = [loadAverage()];
  const result = await measureHeatmaps(urlOf(MAIN), {
    pageSessions: smoke ? 1_000 : 10_000,
    reps: smoke ? 5 : 20,
    log,
  });
  heatmapLoads.push(loadAverage());
  const markdown = heatmapsMarkdown(
    result,
    `${new Date().toISOString()} · \`deno task bench:queries${smoke ? " --smoke" : ""}` +
      `${args["heatmaps-only"] ? " --heatmaps-only" : ""}\` · ${
        SIZES.sessions.toLocaleString("en")
      } ` +
      `seeded sessions over 7 days, ${navigator.hardwareConcurrency} cores. Load average ` +
      `(1/5/15 min) before and after: ${heatmapLoads.join(" · ")}.`,
  );
  console.log(markdown);
  if (!smoke) await writeHeatmapsSection(markdown);
}
