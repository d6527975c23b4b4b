// A real S3 endpoint for the object-store tests: the Ceph RADOS Gateway of
// .ci/ceph-rgw.sh. `deno task test:s3` in CI starts one cluster and exports its S3_* variables;
// without them a test starts a private cluster of its own when the Ceph binaries are installed.
// With neither, the tests are ignored, saying why (`deno task test` needs nothing but Deno).
import { loadConfig } from "@/config.ts";
import { ObjectStore } from "@/db/object_store.ts";

const SCRIPT = new URL("../../.ci/ceph-rgw.sh", import.meta.url).pathname;

function onPath(binary: string): boolean {
  return (Deno.env.get("PATH") ?? "").split(":").some((dir) => {
    try {
      return Deno.statSync(`${dir}/${binary}`).isFile;
    } catch {
      return false;
    }
  });
}

const shared = Deno.env.get("S3_ENDPOINT") ? Deno.env.toObject() : null;
/** Whether Ceph can be started here (the fault tests always start their own cluster). */
export const CEPH_INSTALLED = ["radosgw", "ceph-mon", "ceph-osd"].every(onPath);

/** Why the object-store tests cannot run here, or null when they can. */
export const NO_S3: string | null = shared || CEPH_INSTALLED ? null : "no S3_* variables and no " +
  "Ceph binaries: run `bash .ci/ceph-rgw.sh install`, or `deno task test:s3` as .ci/run does";
export const NO_CEPH: string | null = CEPH_INSTALLED
  ? null
  : "no Ceph binaries: run `bash .ci/ceph-rgw.sh install`";

export interface S3Endpoint extends AsyncDisposable {
  /** S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION */
  s3: Record<string, string>;
  /** The cluster's directory when this test started it (its daemons' pids are in `pids`). */
  dir: string | null;
}

/** The shared endpoint, or a private cluster (always private when `own`). */
export async function s3Endpoint(options: { own?: boolean; port?: number } = {}) {
  if (shared && !options.own) {
    const s3 = pick(shared);
    return { s3, dir: null, [Symbol.asyncDispose]: async () => {} } satisfies S3Endpoint;
  }
  const dir = await Deno.makeTempDir({ prefix: "playhead-s3-" });
  await Deno.remove(dir); // the script wants to make it
  const env = options.port ? { CEPH_RGW_PORT: String(options.port) } : undefined;
  const started = await new Deno.Command("bash", {
    args: [SCRIPT, "start", dir],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!started.success) {
    throw new Error(`ceph-rgw.sh start failed:\n${new TextDecoder().decode(started.stderr)}`);
  }
  const s3 = Object.fromEntries(
    new TextDecoder().decode(started.stdout).trim().split("\n").map((line) => {
      const at = line.indexOf("=");
      return [line.slice(0, at), line.slice(at + 1)];
    }),
  );
  return {
    s3,
    dir,
    [Symbol.asyncDispose]: async () => {
      await new Deno.Command("bash", {
        args: [SCRIPT, "stop", dir],
        stdout: "null",
        stderr: "null",
      })
        .output();
    },
  } satisfies S3Endpoint;
}

/** The service's variables for a fresh bucket on `s3` (tunables in `extra`). */
export function storeEnv(s3: Record<string, string>, extra: Record<string, string> = {}) {
  const bucket = `playhead-test-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  return {
    EVENTS_STORE: `s3://${bucket}/recordings`,
    AWS_ACCESS_KEY_ID: s3.S3_ACCESS_KEY_ID,
    AWS_SECRET_ACCESS_KEY: s3.S3_SECRET_ACCESS_KEY,
    AWS_REGION: s3.S3_REGION,
    AWS_ENDPOINT_URL_S3: s3.S3_ENDPOINT,
    ...extra,
  };
}

/** A store on a fresh bucket of `s3`, created. */
export async function freshStore(s3: Record<string, string>, extra: Record<string, string> = {}) {
  const env = storeEnv(s3, extra);
  const store = new ObjectStore(loadConfig({ NODE_ENV: "test", ...env }).eventsStore!);
  await store.ensureBucket();
  return { env, store };
}

/** Pauses (SIGSTOP) or resumes (SIGCONT) the cluster's gateway: a store that stops answering. */
export async function pauseGateway(dir: string, paused: boolean): Promise<void> {
  const pids = await Deno.readTextFile(`${dir}/pids`);
  const pid = pids.trim().split("\n").map((l) => l.split(" ")).filter(([n]) =>
    n === "client.rgw.s3"
  )
    .at(-1)?.[1];
  if (!pid) throw new Error("no radosgw pid");
  Deno.kill(Number(pid), paused ? "SIGSTOP" : "SIGCONT");
}

function pick(env: Record<string, string>): Record<string, string> {
  const keys = ["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_REGION"];
  return Object.fromEntries(keys.map((k) => [k, env[k]]));
}

/** A store that accepts connections and reads requests but never answers one. */
export interface FrozenStore extends AsyncDisposable {
  /** AWS_ENDPOINT_URL_S3 and the other variables of a store on it. */
  env: Record<string, string>;
  /** The request line of each request received ("GET /frozen/… HTTP/1.1"), and whether it is still open. */
  requests(): Array<{ line: string; open: boolean }>;
}

export function frozenStore(extra: Record<string, string> = {}): FrozenStore {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const connections = new Set<Deno.Conn>();
  const requests: Array<{ line: string; open: boolean }> = [];
  const hold = async (conn: Deno.Conn) => {
    connections.add(conn);
    const buffer = new Uint8Array(16 * 1024);
    let request: { line: string; open: boolean } | null = null;
    try {
      // Read (and drop) what the client sends until it gives up; answer nothing.
      for (let n = await conn.read(buffer); n !== null; n = await conn.read(buffer)) {
        if (request) continue;
        const text = new TextDecoder().decode(buffer.subarray(0, n));
        request = { line: text.slice(0, text.indexOf("\r\n")), open: true };
        requests.push(request);
      }
    } catch {
      // closed under us
    } finally {
      if (request) request.open = false;
      connections.delete(conn);
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
  };
  const accepting = (async () => {
    try {
      for await (const conn of listener) hold(conn);
    } catch {
      // the listener closed
    }
  })();
  const { port } = listener.addr as Deno.NetAddr;
  return {
    env: {
      EVENTS_STORE: "s3://frozen/recordings",
      AWS_ACCESS_KEY_ID: "frozen-access-key",
      AWS_SECRET_ACCESS_KEY: "frozen-secret-key",
      AWS_REGION: "us-east-1",
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
      ...extra,
    },
    requests: () => requests.map((r) => ({ ...r })),
    [Symbol.asyncDispose]: async () => {
      listener.close();
      for (const conn of connections) conn.close();
      await accepting;
    },
  };
}
