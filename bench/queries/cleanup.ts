// Cleanup under load: the ingest bench's light workload runs at modest concurrency, open-ended,
// while GET /api/cron/daily-cleanup sweeps the expired sessions; ingest latency is compared between
// the window before the sweep and the sweep itself.
import { cutSession, loadRecording, SDK_FLUSH_AT_EVENTS } from "../corpus_batches.ts";
import { percentile } from "../stats.ts";
import { type PreparedSession, prepareSessions, type Workload } from "../workload.ts";

interface Sample {
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

export interface CleanupResult {
  seconds: number;
  status: number;
  counts: Record<string, unknown>;
  concurrency: number;
  before: Window;
  during: Window;
  failures: string[];
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

export async function measureCleanup(
  baseUrl: string,
  projectKey: string,
  options: { concurrency: number; beforeSeconds: number; timeoutSeconds: number },
): Promise<CleanupResult> {
  const workload = await lightWorkload();
  // Bodies for the "before" window are gzipped ahead; later sessions are prepared as needed.
  const pool: PreparedSession[] = await prepareSessions(workload, options.concurrency * 4);
  const samples: Sample[] = [];
  const failures = new Set<string>();
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: options.concurrency });
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

  const workers = Array.from({ length: options.concurrency }, worker);
  try {
    await new Promise((resolve) => setTimeout(resolve, options.beforeSeconds * 1000));
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/cron/daily-cleanup`, {
      signal: AbortSignal.timeout(options.timeoutSeconds * 1000),
    });
    const text = await res.text();
    const ended = performance.now();
    stopped = true;
    await Promise.all(workers);
    const warm = started - options.beforeSeconds * 1000;
    return {
      seconds: (ended - started) / 1000,
      status: res.status,
      counts: res.status === 200 ? JSON.parse(text) : { error: text.slice(0, 200) },
      concurrency: options.concurrency,
      // the first second warms the server (JIT, pool connections) and is left out
      before: windowOf(samples, warm + 1000, started),
      during: windowOf(samples, started, ended),
      failures: [...failures],
    };
  } finally {
    stopped = true;
    await Promise.all(workers);
    client.close();
  }
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
