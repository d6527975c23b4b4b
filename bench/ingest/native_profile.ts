// `deno run -A bench/ingest/native_profile.ts [--concurrency 32] [--requests 3000]`: where the
// server's CPU goes per ingest request, all its threads counted — which the V8 inspector's profile
// (./profile.ts) does not see: the garbage collector's helper threads, the kernel, and native code
// with no JavaScript on the stack. Linux `perf` samples the server (started with
// --perf-basic-prof, so JIT frames carry their function's name) while it ingests the light
// workload; each sample goes to the first of `PARTS` named on its stack, in that order.
import { parseArgs } from "node:util";
import { runHttp } from "./http_load.ts";
import { createBenchDatabase, startServer } from "@/bench/server.ts";
import { loadWorkloads, prepareSessions } from "@/bench/workload.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    concurrency: { type: "string", default: "32" },
    requests: { type: "string", default: "3000" },
  },
});
const SAMPLES_PER_SECOND = 1999;
/** A stack naming one of these (a file, a package or a function) is that part's. */
const PARTS: [string, string][] = [
  ["sentParts", "the body's parts: member inflation, shape scan, JSON.parse"],
  ["decodeIngestWire", "validation (zod) of the body"],
  ["readWire", "reading and inflating the body (web stream, node:zlib)"],
  ["prepareIngest", "preparation: digest, markers, summaries"],
  ["writeIngest", "the statement's building (Kysely)"],
  ["postgres@", "postgres.js (messages, socket writes, results)"],
  ["node-server@", "@hono/node-server (Request and Response bridge)"],
  ["hono@", "Hono (routing, middleware)"],
  ["_http_server", "node:http"],
];

const workload = (await loadWorkloads()).find((w) => w.name === "light")!;
const database = await createBenchDatabase("playhead_bench_native_profile");
const data = await Deno.makeTempFile({ suffix: ".perf" });
// The JIT's names for perf go to /tmp/perf-<pid>.map; V8's own log of them is not wanted.
const v8Log = await Deno.makeTempFile({ suffix: ".v8.log" });
let serverPid = 0;
let requests = 0;
try {
  const server = await startServer(
    database.url,
    [
      `--v8-flags=--perf-basic-prof,--no-logfile-per-isolate,--logfile=${v8Log}`,
    ],
    {},
    {
      build: false,
    },
  );
  try {
    serverPid = server.pid;
    const limits = {
      concurrency: Number(args.concurrency),
      maxRequests: Number(args.requests),
      maxSeconds: 10,
      serverPid: server.pid,
      database: database.name,
    };
    const warm = await prepareSessions(workload, 60);
    await runHttp(server.url, database.project.key, warm, { ...limits, maxRequests: 600 });
    const sessions = await prepareSessions(workload, Math.ceil(limits.maxRequests / 8));
    const perf = new Deno.Command("perf", {
      args: [
        "record",
        "-F",
        String(SAMPLES_PER_SECOND),
        "-g",
        "-p",
        String(server.pid),
        "-o",
        data,
      ],
      stdout: "null",
      stderr: "null",
    }).spawn();
    await new Promise((resolve) => setTimeout(resolve, 500)); // perf attaches
    const run = await runHttp(server.url, database.project.key, sessions, limits);
    perf.kill("SIGINT");
    await perf.status;
    requests = run.requests;
    console.log(
      `${run.requests} requests at concurrency ${limits.concurrency}: ${
        (run.cpu.server * run.wallSeconds * 1000 / run.requests).toFixed(2)
      } ms of server CPU per request (unsampled figure; perf adds its own)\n`,
    );
  } finally {
    await server.stop();
  }
  const script = await new Deno.Command("perf", { args: ["script", "-i", data], stderr: "null" })
    .output();
  report(new TextDecoder().decode(script.stdout), requests);
} finally {
  for (const file of [data, v8Log, `/tmp/perf-${serverPid}.map`]) {
    await Deno.remove(file).catch(() => {});
  }
  await database.drop();
}

function report(samplesText: string, requests: number): void {
  const counts = new Map<string, number>();
  const add = (part: string) => counts.set(part, (counts.get(part) ?? 0) + 1);
  for (const sample of samplesText.split("\n\n")) {
    const [head, ...frames] = sample.trim().split("\n");
    if (!head || frames.length === 0) continue;
    if (!head.startsWith("deno")) {
      add("garbage collector's helper threads");
      continue;
    }
    const stack = frames.join("\n");
    const part = PARTS.find(([name]) => stack.includes(name));
    if (part) add(part[1]);
    else if (!stack.includes("JS:")) {
      add(
        frames[0].includes("[kernel")
          ? "kernel, no JavaScript on the stack"
          : "native, no JavaScript on the stack (event loop, I/O, main-thread GC)",
      );
    } else add("other JavaScript");
  }
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log("| part | ms per request | share |\n| --- | ---: | ---: |");
  for (const [part, n] of [...counts].sort((a, b) => b[1] - a[1])) {
    const ms = n / SAMPLES_PER_SECOND * 1000 / requests;
    console.log(`| ${part} | ${ms.toFixed(3)} | ${(n / total * 100).toFixed(0)} % |`);
  }
}
