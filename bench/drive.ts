// The closed-loop driver shared by the HTTP run and the ceiling: `concurrency` workers each take
// the next session and send its requests in order, until a request count or a deadline is reached.
import { cpuRates, sampleCpu } from "./cpu.ts";
import type { RunResult } from "./stats.ts";

export interface Limits {
  concurrency: number;
  maxRequests: number;
  maxSeconds: number;
  /** The server process whose CPU is measured, if any. */
  serverPid: number | null;
  /** The database whose PostgreSQL backends' CPU is measured. */
  database: string;
}

export interface SessionSource<S> {
  sessions: S[];
  requestCount(session: S): number;
  /** Sends request `index` of `session`; resolves with the outcome, never throws. */
  send(session: S, index: number): Promise<Outcome>;
}

export interface Outcome {
  ok: boolean;
  events: number;
  bytes: number;
  failure?: string;
}

export async function drive<S>(source: SessionSource<S>, limits: Limits): Promise<RunResult> {
  const latenciesMs: number[] = [];
  const failures = new Set<string>();
  let next = 0, issued = 0, errors = 0, events = 0, bytes = 0;
  const before = sampleCpu(limits.serverPid, limits.database);
  const deadline = before.at + limits.maxSeconds * 1000;
  const out = () => issued >= limits.maxRequests || performance.now() >= deadline;

  async function worker(): Promise<void> {
    while (!out() && next < source.sessions.length) {
      const session = source.sessions[next++];
      const count = source.requestCount(session);
      for (let i = 0; i < count && !out(); i++) {
        issued++;
        const start = performance.now();
        const outcome = await source.send(session, i);
        latenciesMs.push(performance.now() - start);
        if (outcome.ok) {
          events += outcome.events;
          bytes += outcome.bytes;
        } else {
          errors++;
          if (failures.size < 5) failures.add(outcome.failure ?? "failed");
        }
      }
    }
  }

  await Promise.all(Array.from({ length: limits.concurrency }, worker));
  const after = sampleCpu(limits.serverPid, limits.database);
  return {
    exhausted: next >= source.sessions.length && !out(),
    requests: latenciesMs.length,
    errors,
    events,
    bytes,
    wallSeconds: (after.at - before.at) / 1000,
    latenciesMs,
    cpu: cpuRates(before, after),
    failures: [...failures],
  };
}
