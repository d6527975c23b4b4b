// Background ingest for the query benchmark: the ingest bench's light workload (TodoMVC,
// flushInterval 5 s) posted by `concurrency` open-ended workers until stopped, every request's
// start and latency kept, so a window of them (before or during a cleanup, during the reads) can be
// summarised.
import { cutSession, loadRecording, SDK_FLUSH_AT_EVENTS } from "@/bench/corpus_batches.ts";
import { percentile } from "@/bench/stats.ts";
import { type PreparedSession, prepareSessions, type Workload } from "@/bench/workload.ts";

export interface Sample {
  at: number;
  ms: number;
  ok: boolean;
}

export interface Window {
  seconds: number;
  requests: number;
  errors: number;
  p50: number;
  p95: number;
  p99: number;
}

export interface IngestLoad {
  concurrency: number;
  /** When the first second (server warm-up) is over; windows start there at the earliest. */
  warmAt: number;
  /** The first few distinct failures (status and body, or the error). */
  failures: Set<string>;
  /** Requests that started in [from, to). */
  window(from: number, to: number): Window;
  /** Stops the workers once their requests in flight are answered; idempotent. */
  stop(): Promise<void>;
}

/** The light workload of bench/workload.ts (TodoMVC, flushInterval 5 s). */
async function lightWorkload(): Promise<Workload> {
  const events = await loadRecording("todomvc-react");
  return {
    name: "light",
    description: "todomvc-react, flushInterval 5 s",
    sessions: [{
      recording: "todomvc-react",
      batches: cutSession(events, { flushIntervalMs: 5_000, flushAtEvents: SDK_FLUSH_AT_EVENTS }),
    }],
  };
}

export async function startIngestLoad(
  baseUrl: string,
  projectKey: string,
  concurrency: number,
): Promise<IngestLoad> {
  const workload = await lightWorkload();
  // Bodies for the first sessions are gzipped ahead; later sessions are prepared as needed.
  const pool: PreparedSession[] = await prepareSessions(workload, concurrency * 4);
  const samples: Sample[] = [];
  const failures = new Set<string>();
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: concurrency });
  let stopped = false;

  async function worker(): Promise<void> {
    while (!stopped) {
      const session = pool.pop() ?? (await prepareSessions(workload, 1))[0];
      for (const body of session.bodies) {
        if (stopped) return;
        const at = performance.now();
        let ok = false;
        try {
          const res = await fetch(`${baseUrl}/api/ingest`, {
            method: "POST",
            client,
            headers: {
              "content-type": "application/json",
              "content-encoding": "gzip",
              "x-service-public-key": projectKey,
            },
            body,
          });
          const text = await res.text();
          ok = res.status === 204;
          if (!ok && failures.size < 5) failures.add(`${res.status} ${text.slice(0, 200)}`);
        } catch (error) {
          if (failures.size < 5) failures.add(String(error));
        }
        samples.push({ at, ms: performance.now() - at, ok });
      }
    }
  }

  const workers = Array.from({ length: concurrency }, worker);
  let stopping: Promise<void> | undefined;
  return {
    concurrency,
    warmAt: performance.now() + 1000,
    failures,
    window: (from, to) => windowOf(samples, from, to),
    stop() {
      stopped = true;
      // once, however often called (a caller's finally after its own stop)
      stopping ??= Promise.all(workers).then(() => client.close());
      return stopping;
    },
  };
}

/** Requests that started in [from, to). */
function windowOf(samples: Sample[], from: number, to: number): Window {
  const inside = samples.filter((s) => s.at >= from && s.at < to);
  const ms = inside.map((s) => s.ms).sort((a, b) => a - b);
  return {
    seconds: (to - from) / 1000,
    requests: inside.length,
    errors: inside.filter((s) => !s.ok).length,
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
  };
}
