// `deno run -A bench/ingest/floor.ts [--levels 8,32] [--rounds 3] [--seconds 8]`: the server's CPU
// per ingest request beside the floor of the stack (./floor_server.ts: the same HTTP server and
// driver, one inflation, JSON.parse and one INSERT), on the light workload's bodies, the two taking
// turns in each round so that both meet the same host. CPU per request is the server process's
// CPU seconds (all its threads, garbage collection included) over the requests answered.
import { parseArgs } from "node:util";
import { runHttp } from "./http_load.ts";
import { createBenchDatabase, startServer } from "@/bench/server.ts";
import { summarize } from "@/bench/stats.ts";
import { loadWorkloads, prepareSessions } from "@/bench/workload.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    levels: { type: "string", default: "8,32" },
    rounds: { type: "string", default: "3" },
    seconds: { type: "string", default: "8" },
  },
});
const LEVELS = args.levels.split(",").map(Number);
const ROUNDS = Number(args.rounds);
const SECONDS = Number(args.seconds);
/** Enough sessions for any level's run (the light workload has ~11 requests a session). */
const SESSIONS_PER_RUN = 1_500;

const workload = (await loadWorkloads()).find((w) => w.name === "light")!;
const database = await createBenchDatabase("playhead_bench_floor");
const loadBefore = Deno.loadavg()[0];
const rows: string[] = [];
try {
  const servers = {
    service: await startServer(database.url),
    floor: await startServer(database.url, [], {}, {
      build: false,
      entry: "bench/ingest/floor_server.ts",
    }),
  };
  try {
    for (const server of Object.values(servers)) {
      const warm = await prepareSessions(workload, 40);
      await run(server, warm, 8, 2, 400);
    }
    for (let round = 1; round <= ROUNDS; round++) {
      for (const concurrency of LEVELS) {
        const cells: string[] = [];
        const perRequest: number[] = [];
        for (const server of [servers.service, servers.floor]) {
          const sessions = await prepareSessions(workload, SESSIONS_PER_RUN);
          const result = await run(server, sessions, concurrency, SECONDS, 100_000);
          const s = summarize(result);
          const perRequestMs = (cores: number) =>
            cores * result.wallSeconds * 1000 / result.requests;
          const ms = perRequestMs(result.cpu.server);
          perRequest.push(ms);
          cells.push(
            s.rps.toFixed(0),
            s.p99.toFixed(0),
            ms.toFixed(2),
            perRequestMs(result.cpu.postgres).toFixed(2),
          );
          if (result.errors > 0) throw new Error(`${result.errors} failed: ${result.failures[0]}`);
        }
        rows.push(
          `| ${round} | ${concurrency} | ${cells.join(" | ")} | ${
            (perRequest[0] / perRequest[1]).toFixed(1)
          }× |`,
        );
        console.error(rows.at(-1));
      }
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  }
} finally {
  await database.drop();
}
console.log([
  `${new Date().toISOString()} · \`deno run -A bench/ingest/floor.ts --levels ${LEVELS} ` +
  `--rounds ${ROUNDS} --seconds ${SECONDS}\` · load average (1 min) ${loadBefore.toFixed(1)} → ${
    Deno.loadavg()[0].toFixed(1)
  }`,
  "",
  "| round | conc. | service req/s | p99 ms | **service CPU ms/req** | PostgreSQL ms/req | floor req/s | p99 ms | **floor CPU ms/req** | PostgreSQL ms/req | service ÷ floor |",
  "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  ...rows,
].join("\n"));

function run(
  server: { url: string; pid: number },
  sessions: Awaited<ReturnType<typeof prepareSessions>>,
  concurrency: number,
  maxSeconds: number,
  maxRequests: number,
) {
  return runHttp(server.url, database.project.key, sessions, {
    concurrency,
    maxRequests,
    maxSeconds,
    serverPid: server.pid,
    database: database.name,
  });
}
