// A disposable PostgreSQL 15 cluster of the test's own (initdb into a temp dir, its own port), so
// fault tests can stop, start and kill a database without touching the shared server.
import { openDb } from "@/db/client.ts";
import { migrateToLatest } from "@/db/migrator.ts";

const BIN = "/usr/lib/postgresql/15/bin";

/** Fault tests need the server binaries and root (to run them as the postgres user). */
export const clusterAvailable = (() => {
  try {
    return Deno.statSync(`${BIN}/initdb`).isFile && Deno.uid?.() === 0;
  } catch {
    return false;
  }
})();

export interface Cluster extends AsyncDisposable {
  url: string;
  start(): Promise<void>;
  stop(mode: "fast" | "immediate"): Promise<void>;
}

async function asPostgres(command: string, args: string[]): Promise<string> {
  const out = await new Deno.Command("runuser", {
    args: ["-u", "postgres", "--", `${BIN}/${command}`, ...args],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`${command} failed:\n${text}`);
  return text;
}

export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

export async function startCluster(): Promise<Cluster> {
  const dir = await Deno.makeTempDir({ prefix: "playhead-faults-" });
  await Deno.chmod(dir, 0o777);
  const data = `${dir}/data`;
  const port = freePort();
  await asPostgres("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=on`;
  const cluster: Cluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      await asPostgres("pg_ctl", ["-D", data, "-o", options, "-l", `${dir}/log`, "-w", "start"]);
    },
    stop: async (mode) => {
      await asPostgres("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"]);
    },
    [Symbol.asyncDispose]: async () => {
      await cluster.stop("immediate").catch(() => {});
      await Deno.remove(dir, { recursive: true });
    },
  };
  await cluster.start();
  const db = await openDb({ kind: "postgres", url: cluster.url, max: 1 });
  try {
    await migrateToLatest(db.kysely);
  } finally {
    await db.close();
  }
  return cluster;
}
