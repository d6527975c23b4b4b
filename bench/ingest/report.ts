// Renders the benchmark's measurements as the Markdown tables of bench/RESULTS.md.
import { type Breakdown, PATHS, STEPS } from "./breakdown.ts";
import { type RunResult, summarize } from "@/bench/stats.ts";

export interface LevelResult {
  concurrency: number;
  server: RunResult;
  ceiling: RunResult;
}

export interface WorkloadResult {
  name: string;
  description: string;
  levels: LevelResult[];
  /** null when the run skipped it (--smoke). */
  breakdown: Breakdown | null;
}

const f0 = (n: number) => Math.round(n).toLocaleString("en-US");
const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

export function renderWorkload(w: WorkloadResult): string {
  const lines = [
    `### ${w.name}: ${w.description}`,
    "",
    "| conc. | run | requests | req/s | events/s | MB/s (wire) | p50 ms | p95 ms | p99 ms | errors | server CPU | postgres CPU | bench CPU | others' CPU |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const level of w.levels) {
    for (const [label, run] of [["server", level.server], ["ceiling", level.ceiling]] as const) {
      const s = summarize(run);
      lines.push(
        `| ${level.concurrency} | ${label} | ${f0(run.requests)} | ${f0(s.rps)} | ${
          f0(s.eventsPerSecond)
        } | ${f1(s.mbPerSecond)} | ${f1(s.p50)} | ${f1(s.p95)} | ${f1(s.p99)} | ${run.errors} | ${
          label === "server" ? f2(run.cpu.server) : "–"
        } | ${f2(run.cpu.postgres)} | ${f2(run.cpu.bench)} | ${f2(run.cpu.others)} |`,
      );
    }
  }
  // CPU per request does not depend on how much CPU other processes left us, unlike req/s.
  lines.push(
    "",
    "| conc. | server req/s ÷ ceiling req/s | server CPU ms/req | postgres CPU ms/req (server) | postgres CPU ms/req (ceiling) |",
    "|---:|---:|---:|---:|---:|",
  );
  for (const level of w.levels) {
    const server = summarize(level.server).rps;
    const ceiling = summarize(level.ceiling).rps;
    lines.push(
      `| ${level.concurrency} | ${((server / ceiling) * 100).toFixed(0)} % | ${
        f2((level.server.cpu.server / server) * 1000)
      } | ${f2((level.server.cpu.postgres / server) * 1000)} | ${
        f2((level.ceiling.cpu.postgres / ceiling) * 1000)
      } |`,
    );
  }
  const short = w.levels.flatMap((l) =>
    [["server", l.server], ["ceiling", l.ceiling]].filter(([, r]) => (r as RunResult).exhausted)
      .map(([label]) => `conc. ${l.concurrency} ${label}`)
  );
  if (short.length) {
    lines.push("", `Ran out of prepared sessions (shorter than planned): ${short.join(", ")}.`);
  }
  const failures = w.levels.flatMap((l) => [...l.server.failures, ...l.ceiling.failures]);
  if (failures.length) lines.push("", "Failures:", ...failures.map((f) => `- ${f}`));
  if (w.breakdown) lines.push("", renderBreakdown(w.breakdown, w.levels));
  return lines.join("\n");
}

function renderBreakdown(breakdown: Breakdown, levels: LevelResult[]): string {
  const total = STEPS.reduce((n, step) => n + breakdown[step], 0);
  const lines = ["| step (in-process, per request) | ms | share |", "|---|---:|---:|"];
  for (const step of STEPS) {
    const ms = breakdown[step];
    lines.push(`| ${step} | ${ms.toFixed(3)} | ${((ms / total) * 100).toFixed(0)} % |`);
  }
  lines.push(`| total before SQL | ${total.toFixed(3)} | |`);
  for (const path of PATHS) lines.push(`| ${path} | ${breakdown[path].toFixed(3)} | |`);
  const c1 = levels.find((l) => l.concurrency === 1);
  if (c1) {
    const sql = c1.ceiling.latenciesMs.reduce((a, b) => a + b, 0) / c1.ceiling.requests;
    const http = c1.server.latenciesMs.reduce((a, b) => a + b, 0) / c1.server.requests;
    lines.push(
      `| SQL statement (ceiling, conc. 1, mean) | ${sql.toFixed(3)} | |`,
      `| whole request over HTTP (conc. 1, mean) | ${http.toFixed(3)} | |`,
    );
  }
  return lines.join("\n");
}
