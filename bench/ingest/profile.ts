// `deno run -A bench/ingest/profile.ts [--workload light] [--concurrency 8]`: a V8 CPU profile of
// the server while it ingests each workload (at concurrency 8 by default; at 1 the samples are
// nearly all CPU, not waits for a core); prints the functions with the most self time, saves
// .cpuprofile files.
import { parseArgs } from "node:util";
import { byCategory, startProfiler, topFunctions } from "./cpu_profile.ts";
import { runHttp } from "./http_load.ts";
import { createBenchDatabase, freePort, startServer } from "@/bench/server.ts";
import { summarize } from "@/bench/stats.ts";
import { loadWorkloads, prepareSessions } from "@/bench/workload.ts";

const OUT = new URL("../out/", import.meta.url).pathname;
const PLAN = { light: { requests: 3_000, seconds: 6 }, corpus: { requests: 16, seconds: 20 } };

const { values: args } = parseArgs({
  args: Deno.args,
  options: { workload: { type: "string" }, concurrency: { type: "string", default: "8" } },
});
const CONCURRENCY = Number(args.concurrency);
const workloads = (await loadWorkloads())
  .filter((workload) => !args.workload || workload.name === args.workload);
const database = await createBenchDatabase("playhead_bench_profile");
try {
  const inspectPort = freePort();
  const server = await startServer(database.url, [`--inspect=127.0.0.1:${inspectPort}`]);
  try {
    await Deno.mkdir(OUT, { recursive: true });
    for (const workload of workloads) {
      const plan = PLAN[workload.name as keyof typeof PLAN];
      const limits = {
        concurrency: CONCURRENCY,
        maxRequests: plan.requests,
        maxSeconds: plan.seconds,
        serverPid: server.pid,
        database: database.name,
      };
      const warm = await prepareSessions(workload, 8);
      await runHttp(server.url, database.project.key, warm, { ...limits, maxRequests: 50 });
      const sessions = await prepareSessions(workload, plan.requests);
      const profiler = await startProfiler(inspectPort);
      const run = await runHttp(server.url, database.project.key, sessions, limits);
      const profile = await profiler.stop();
      await Deno.writeTextFile(`${OUT}${workload.name}.cpuprofile`, JSON.stringify(profile));
      const s = summarize(run);
      console.log(
        `\n### ${workload.name}, concurrency ${CONCURRENCY}: ${run.requests} requests, ${
          s.rps.toFixed(0)
        } req/s, ` +
          `server CPU ${run.cpu.server.toFixed(2)}, others' CPU ${run.cpu.others.toFixed(2)}\n`,
      );
      console.log("| self time | share | cost centre |\n|---:|---:|---|");
      for (const row of byCategory(profile)) {
        console.log(
          `| ${row.ms.toFixed(0)} ms | ${(row.share * 100).toFixed(1)} % | ${row.category} |`,
        );
      }
      console.log("\n| self time | share | function |\n|---:|---:|---|");
      for (const row of topFunctions(profile)) {
        console.log(
          `| ${row.ms.toFixed(0)} ms | ${(row.share * 100).toFixed(1)} % | ${row.frame} |`,
        );
      }
    }
  } finally {
    await server.stop();
  }
} finally {
  await database.drop();
}
