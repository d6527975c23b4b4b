// Latency percentiles and the per-run summary shared by the HTTP and the ceiling loops.
import type { CpuRates } from "./cpu.ts";

export interface RunResult {
  requests: number;
  errors: number;
  events: number;
  /** Bytes sent over the wire (gzipped bodies); for the ceiling, the stored gzip bytes. */
  bytes: number;
  wallSeconds: number;
  latenciesMs: number[];
  cpu: CpuRates;
  /** The prepared sessions ran out before either limit (the run was shorter than planned). */
  exhausted: boolean;
  /** A few distinct failures, for the report. */
  failures: string[];
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)];
}

export function summarize(run: RunResult) {
  const sorted = [...run.latenciesMs].sort((a, b) => a - b);
  return {
    rps: run.requests / run.wallSeconds,
    eventsPerSecond: run.events / run.wallSeconds,
    mbPerSecond: run.bytes / run.wallSeconds / 1e6,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}
