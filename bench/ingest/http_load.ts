// The HTTP side: replays prepared, gzipped ingest bodies against the running server with Deno's
// fetch (keep-alive connections, one per concurrent worker at most).
import { drive, type Limits } from "@/bench/drive.ts";
import type { RunResult } from "@/bench/stats.ts";
import type { PreparedSession } from "@/bench/workload.ts";

export async function runHttp(
  baseUrl: string,
  key: string,
  sessions: PreparedSession[],
  limits: Limits,
): Promise<RunResult> {
  const client = Deno.createHttpClient({ poolMaxIdlePerHost: limits.concurrency });
  const url = `${baseUrl}/api/ingest`;
  try {
    return await drive({
      sessions,
      requestCount: (s) => s.bodies.length,
      send: async (s, i) => {
        const body = s.bodies[i];
        try {
          const res = await fetch(url, {
            method: "POST",
            client,
            headers: {
              "content-type": "application/json",
              "content-encoding": "gzip",
              "x-service-public-key": key,
            },
            body,
          });
          const text = await res.text();
          if (res.status === 204) return { ok: true, events: s.eventCounts[i], bytes: body.length };
          return { ok: false, events: 0, bytes: 0, failure: `${res.status} ${text.slice(0, 200)}` };
        } catch (error) {
          return { ok: false, events: 0, bytes: 0, failure: String(error) };
        }
      },
    }, limits);
  } finally {
    client.close();
  }
}
