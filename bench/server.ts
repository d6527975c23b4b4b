// A disposable benchmark database on the local PostgreSQL and the production server started
// against it as a child process (`deno run -A main.ts`), stopped and dropped at the end.
import postgres from "postgres";
import { openDb } from "@/db/client.ts";
import { migrateToLatest } from "@/db/migrator.ts";
import { insertProject } from "@/tests/helpers/factories.ts";

const ROOT = new URL("../", import.meta.url).pathname;
/** The server's AUTH_SECRET, so a benchmark can sign its own session cookie. */
export const BENCH_AUTH_SECRET = "bench-only-secret-Vd0pK3n9yQ2mX7rB4tL8";
const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export interface BenchDatabase {
  name: string;
  url: string;
  project: { id: string; organizationId: string; key: string };
  drop(): Promise<void>;
}

/** Creates `name` afresh (dropping a leftover), migrates it and inserts one project. */
export async function createBenchDatabase(name: string): Promise<BenchDatabase> {
  const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = ADMIN_URL.replace(/\/postgres$/, `/${name}`);
  const db = await openDb({ kind: "postgres", url, max: 1 });
  try {
    await migrateToLatest(db.kysely);
    const project = await insertProject(db.kysely, { name: "Bench" });
    return {
      name,
      url,
      project: { id: project.id, organizationId: project.organization_id, key: project.key },
      drop: async () => {
        const admin = postgres(ADMIN_URL, { max: 1, onnotice: () => {} });
        try {
          await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        } finally {
          await admin.end();
        }
      },
    };
  } finally {
    await db.close();
  }
}

export interface BenchServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts main.ts in production mode on a free loopback port and waits for /api/health; `root`
 * runs another checkout's main.ts (a before/after comparison), `build: false` skips the islands
 * build when only the API is measured, `entry` runs another server (bench/ingest/floor_server.ts).
 */
export async function startServer(
  databaseUrl: string,
  extraArgs: string[] = [],
  extraEnv: Record<string, string> = {},
  { root = ROOT, build = true, entry = "main.ts" }: {
    root?: string;
    build?: boolean;
    entry?: string;
  } = {},
) {
  if (build) await ensureBuilt();
  const port = freePort();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...extraArgs, entry],
    cwd: root,
    env: {
      DATABASE_URL: databaseUrl,
      NODE_ENV: "production",
      AUTH_SECRET: BENCH_AUTH_SECRET,
      APP_URL: `http://127.0.0.1:${port}`,
      // production refuses to start without a sign-in method; ingest never uses it
      AUTH_OAUTH_A_ID: "bench",
      AUTH_OAUTH_A_SECRET: "bench",
      PORT: String(port),
      LOG_LEVEL: "warn",
      ...extraEnv,
    },
    stdin: "null",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  const url = `http://127.0.0.1:${port}`;
  let exited = false;
  child.status.then(() => exited = true);
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
    const timer = setTimeout(() => {
      try {
        child.kill("SIGKILL");
      } catch { /* gone */ }
    }, 5_000);
    await child.status;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/api/health`);
      await res.body?.cancel();
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (exited) throw new Error("the server exited before it became healthy");
    if (Date.now() > deadline) {
      await stop();
      throw new Error("server did not become healthy within 60 s");
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, pid: child.pid, stop } satisfies BenchServer;
}

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

/** main.ts serves the built islands and SDK; build once if a clean clone has not. */
async function ensureBuilt(): Promise<void> {
  try {
    await Deno.stat(`${ROOT}static/build/manifest.json`);
  } catch {
    const { success } = await new Deno.Command(Deno.execPath(), {
      args: ["task", "build"],
      cwd: ROOT,
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (!success) throw new Error("deno task build failed");
  }
}
