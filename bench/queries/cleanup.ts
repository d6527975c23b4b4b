// Cleanup under load: the ingest bench's light workload runs at modest concurrency, open-ended,
// while GET /api/cron/daily-cleanup sweeps the expired sessions; ingest latency is compared between
// the window before the sweep and the sweep itself.
import { startIngestLoad, type Window } from "./ingest_load.ts";

export interface CleanupResult {
  seconds: number;
  status: number;
  counts: Record<string, unknown>;
  concurrency: number;
  before: Window;
  during: Window;
  failures: string[];
}

export async function measureCleanup(
  baseUrl: string,
  projectKey: string,
  options: { concurrency: number; beforeSeconds: number; timeoutSeconds: number },
): Promise<CleanupResult> {
  const load = await startIngestLoad(baseUrl, projectKey, options.concurrency);
  try {
    await new Promise((resolve) => setTimeout(resolve, options.beforeSeconds * 1000));
    const started = performance.now();
    const res = await fetch(`${baseUrl}/api/cron/daily-cleanup`, {
      signal: AbortSignal.timeout(options.timeoutSeconds * 1000),
    });
    const text = await res.text();
    const ended = performance.now();
    await load.stop();
    return {
      seconds: (ended - started) / 1000,
      status: res.status,
      counts: res.status === 200 ? JSON.parse(text) : { error: text.slice(0, 200) },
      concurrency: options.concurrency,
      // the first second warms the server (JIT, pool connections) and is left out
      before: load.window(load.warmAt, started),
      during: load.window(started, ended),
      failures: [...load.failures],
    };
  } finally {
    await load.stop();
  }
}
