// The production entry (main.ts) as a child process against a fault cluster, and an ingest load
// that records which batches the service acknowledged, to compare with the rows stored.
import { freePort } from "./cluster.ts";
import { T0 } from "@/tests/helpers/times.ts";

export interface Service {
  url: string;
  child: Deno.ChildProcess;
  status: Promise<Deno.CommandStatus>;
}

export async function startService(databaseUrl: string, env: Record<string, string> = {}) {
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "warn",
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      APP_URL: `http://127.0.0.1:${port}`,
      INGEST_DATABASE_BUDGET_MS: "2000",
      SHUTDOWN_GRACE_MS: "2000",
      ...env,
    },
    stdout: "null",
    stderr: "inherit",
  }).spawn();
  const service: Service = { url: `http://127.0.0.1:${port}`, child, status: child.status };
  await waitUntil(async () => (await fetch(`${service.url}/api/health`)).status === 200);
  return service;
}

export async function waitUntil(probe: () => Promise<boolean>, attempts = 300): Promise<void> {
  for (let i = 0; i < attempts; i++) {
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("condition never held");
}

export interface Load {
  acknowledged: Array<{ sessionId: string; firstTs: number }>;
  statuses: Map<number, number>;
  /** Responses other than 204 that lacked CORS or (for 503) Retry-After. */
  badHeaders: number;
  stop(): Promise<void>;
}

/** The longest a load runs when nobody stops it. */
const LOAD_MAX_MS = 5 * 60_000;

/** `workers` loops posting one fresh batch after another until stopped (or LOAD_MAX_MS). */
export function ingestLoad(url: string, key: string, workers = 4): Load {
  const load: Load = {
    acknowledged: [],
    statuses: new Map(),
    badHeaders: 0,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
  let running = true;
  // A test that fails before stop() leaves no load running for ever.
  const giveUpAt = Date.now() + LOAD_MAX_MS;
  let next = T0;
  const loop = async () => {
    while (running && Date.now() < giveUpAt) {
      const sessionId = crypto.randomUUID();
      const firstTs = next++;
      const events = [{ type: 3, data: { source: 2, id: firstTs }, timestamp: firstTs }];
      let status = 0;
      try {
        const res = await fetch(`${url}/api/ingest`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-service-public-key": key },
          body: JSON.stringify({ sessionId, events }),
        });
        status = res.status;
        await res.body?.cancel();
        if (status === 204) load.acknowledged.push({ sessionId, firstTs });
        else if (
          res.headers.get("access-control-allow-origin") !== "*" ||
          (status === 503 && !res.headers.get("retry-after"))
        ) load.badHeaders++;
      } catch {
        status = 0; // connection refused or reset: the service was down
        await new Promise((r) => setTimeout(r, 50));
      }
      load.statuses.set(status, (load.statuses.get(status) ?? 0) + 1);
    }
  };
  const loops = Array.from({ length: workers }, loop);
  return load;
}
