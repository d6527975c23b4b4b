// `deno task bench:ingest [--smoke] [--out FILE]`: ingest throughput of the real server against
// PostgreSQL at concurrency 1, 8 and 32, beside the bare-SQL ceiling measured in the same run.
import { parseArgs } from "node:util";
import { measureBreakdown } from "./breakdown.ts";
import { ceilingRows, runCeiling } from "./ceiling.ts";
import { runHttp } from "./http_load.ts";
import { type LevelResult, renderWorkload, type WorkloadResult } from "./report.ts";
import { createBenchDatabase, startServer } from "@/bench/server.ts";
import {
  loadWorkloads,
  meanBatchesPerSession,
  prepareSessions,
  type Workload,
} from "@/bench/workload.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    smoke: { type: "boolean", default: false },
    out: { type: "string" },
    seconds: { type: "string" },
    // Comparisons of one change: e.g. `--workload light --levels 8,32`.
    workload: { type: "string" },
    levels: { type: "string" },
  },
});

const LEVELS = args.levels ? args.levels.split(",").map(Number) : [1, 8, 32];
/** Each level stops at whichever limit comes first. */
const LIMITS = args.smoke
  ? { seconds: 0.5, requests: { light: 24, corpus: 2 }, breakdownRounds: 0 }
  : {
    seconds: Number(args.seconds ?? 8),
    requests: { light: 20_000, corpus: 40 },
    breakdownRounds: 2,
  };

log("cutting the corpus");
const workloads = (await loadWorkloads())
  .filter((workload) => !args.workload || workload.name === args.workload);
log("creating the database, starting the server");
const database = await createBenchDatabase(args.smoke ? "playhead_bench_smoke" : "playhead_bench");
let failed = 0;
try {
  const server = await startServer(database.url);
  try {
    const results: WorkloadResult[] = [];
    for (const workload of workloads) {
      results.push(await benchWorkload(workload, server));
    }
    const report = [
      `${new Date().toISOString()} · \`deno task bench:ingest${args.smoke ? " --smoke" : ""}\``,
      "",
      ...results.map(renderWorkload).flatMap((table) => [table, ""]),
    ].join("\n");
    console.log(report);
    if (args.out) await Deno.writeTextFile(args.out, report);
    failed = results.flatMap((w) => w.levels)
      .reduce((n, l) => n + l.server.errors + l.ceiling.errors, 0);
  } finally {
    await server.stop();
  }
} finally {
  await database.drop();
}
if (failed > 0) {
  console.error(`${failed} request(s) failed`);
  Deno.exit(1);
}

async function benchWorkload(
  workload: Workload,
  server: { url: string; pid: number },
): Promise<WorkloadResult> {
  const maxRequests = LIMITS.requests[workload.name as keyof typeof LIMITS.requests];
  // A session is taken only when a request of it is issued, and the server, doing the same SQL
  // and more, cannot outrun the bare SQL: prepare what the ceiling's rate allows, plus a margin.
  const sessionsFor = (requests: number) =>
    Math.min(Math.ceil(requests), Math.ceil(requests / meanBatchesPerSession(workload) * 1.3) + 32);
  const rows = await ceilingRows(workload);
  const key = database.project.key;

  // Warm the server (JIT, pool connections) on light requests before any clock runs.
  if (workload.name === "light") {
    await runHttp(server.url, key, await prepareSessions(workload, 16), {
      concurrency: 8,
      maxRequests: Math.min(maxRequests, 150),
      maxSeconds: 2,
      serverPid: server.pid,
      database: database.name,
    });
  }

  const levels: LevelResult[] = [];
  for (const concurrency of LEVELS) {
    const limits = {
      concurrency,
      maxRequests,
      maxSeconds: LIMITS.seconds,
      serverPid: server.pid,
      database: database.name,
    };
    log(`${workload.name} c=${concurrency}: ceiling`);
    const ceiling = await runCeiling(
      database.url,
      database.project,
      rows,
      sessionsFor(maxRequests),
      limits,
    );
    const expected = Math.min(
      maxRequests,
      ceiling.requests / ceiling.wallSeconds * limits.maxSeconds,
    );
    log(`${workload.name} c=${concurrency}: preparing bodies`);
    const sessions = await prepareSessions(workload, sessionsFor(expected * 1.3));
    log(`${workload.name} c=${concurrency}: server`);
    const http = await runHttp(server.url, key, sessions, limits);
    levels.push({ concurrency, server: http, ceiling });
  }
  let breakdown = null;
  if (LIMITS.breakdownRounds > 0) {
    log(`${workload.name}: timing the ingest steps`);
    breakdown = await measureBreakdown(
      await prepareSessions(workload, workload.sessions.length),
      workload.name === "light" ? LIMITS.breakdownRounds * 25 : LIMITS.breakdownRounds,
    );
  }
  return { name: workload.name, description: workload.description, levels, breakdown };
}

function log(message: string): void {
  console.error(`[bench ${(performance.now() / 1000).toFixed(1)} s] ${message}`);
}
