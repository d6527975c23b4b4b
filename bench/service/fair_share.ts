// `deno run -A bench/service/fair_share.ts [--root DIR] [--label NAME]` (issue 23 #1, #2): one
// caller degrading everyone, measured against the production server (main.ts from `--root`, by
// default this tree, so an older build can be measured by the same script):
//  - health flood: 1,000 and 1,500 parallel GET /api/health, with one dashboard read and one ingest
//    sent in the middle: how each flood call is answered, and the read's and the ingest's time;
//  - large bodies: 8 and 16 parallel ~1 MiB gzip bodies that inflate to ~31 MiB, while a probe asks
//    for a 404 every 20 ms: the probe's longest wait, the bodies' statuses, the server's peak RSS;
//  - throughput: large bodies at concurrency 4 and SDK-sized ones at 32 for a fixed time.
// Take /tmp/bench.lock around it; note `uptime`.
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import postgres from "postgres";
import { signSession } from "../../core/auth/token.ts";
import { BENCH_AUTH_SECRET, createBenchDatabase, startServer } from "../server.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    root: { type: "string" },
    label: { type: "string", default: "this tree" },
    seconds: { type: "string", default: "12" },
  },
});
const SECONDS = Number(args.seconds);
const log = (message: string) => console.error(`[fair_share] ${message}`);

const database = await createBenchDatabase("playhead_bench_fair");
const sql = postgres(database.url, { max: 1, onnotice: () => {} });
await sql`INSERT INTO users (id, email, name, active_organization_id)
  VALUES ('bench-viewer', 'viewer@bench.test', 'Viewer', ${database.project.organizationId})`;
await sql`INSERT INTO memberships (id, organization_id, user_id, role)
  VALUES ('bench-membership', ${database.project.organizationId}, 'bench-viewer', 'VIEWER')`;
await sql.end();
const cookie = `playhead_session=${await signSession(BENCH_AUTH_SECRET, {
  userId: "bench-viewer",
  version: 0,
})}`;

log(`server from ${args.root ?? "this tree"}`);
const server = await startServer(database.url, [], {}, { root: args.root, build: false });
const key = database.project.key;
const lines: string[] = [];
const out = (line: string) => {
  lines.push(line);
  console.log(line);
};

try {
  out(`### ${args.label} (${new Date().toISOString()}, load ${loadAverage()})`);
  out("");
  out("| health flood | health answers | dashboard read | ingest |");
  out("| -----------: | -------------- | -------------: | -----: |");
  for (const calls of [1000, 1500]) out(await healthFlood(calls));
  out("");
  out(
    "| large bodies | statuses | probe max wait ms | probe p50 ms | probes | all answered in s | server peak RSS MiB |",
  );
  out(
    "| -----------: | -------- | ----------------: | -----------: | -----: | ----------------: | ------------------: |",
  );
  for (const parallel of [8, 16]) out(await largeBodies(parallel));
  out("");
  out("| throughput | concurrency | requests | req/s | decoded MB/s | statuses |");
  out("| ---------- | ----------: | -------: | ----: | -----------: | -------- |");
  out(await throughput("large (1 MiB gzip → 31 MiB)", largeBody, 4));
  out(await throughput("SDK-sized (25 KB JSON)", lightBody, 32));
} finally {
  await server.stop();
  await database.drop();
}

async function healthFlood(calls: number): Promise<string> {
  const statuses = new Map<number, number>();
  const flood = Array.from({ length: calls }, async () => {
    try {
      const res = await fetch(`${server.url}/api/health`);
      await res.body?.cancel();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    } catch {
      statuses.set(0, (statuses.get(0) ?? 0) + 1);
    }
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  const read = timed(() => fetch(`${server.url}/api/sessions/summary`, { headers: { cookie } }));
  const ingest = timed(() => post(lightBody()));
  await Promise.all(flood);
  const [r, i] = await Promise.all([read, ingest]);
  const answers = [...statuses].sort().map(([s, n]) => `${n}× ${s || "failed"}`).join(", ");
  return `| ${calls} | ${answers} | ${r.ms.toFixed(0)} ms (${r.status}) | ${
    i.ms.toFixed(0)
  } ms (${i.status}) |`;
}

async function largeBodies(parallel: number): Promise<string> {
  const bodies = Array.from({ length: parallel }, (_, i) => largeBody(i));
  const waits: number[] = [];
  let flooding = true;
  let peakRss = 0;
  const probe = (async () => {
    while (flooding) {
      const started = performance.now();
      const res = await fetch(`${server.url}/api/nope`);
      await res.body?.cancel();
      waits.push(performance.now() - started);
      peakRss = Math.max(peakRss, rssMiB(server.pid));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const before = waits.length;
  const started = performance.now();
  const statuses = await Promise.all(bodies.map(async (body) => (await post(body)).status));
  const seconds = (performance.now() - started) / 1000;
  flooding = false;
  await probe;
  const during = waits.slice(before).sort((a, b) => a - b);
  const counts = new Map<number, number>();
  for (const s of statuses) counts.set(s, (counts.get(s) ?? 0) + 1);
  return `| ${parallel} | ${[...counts].map(([s, n]) => `${n}× ${s}`).join(", ")} | ` +
    `${during.at(-1)!.toFixed(0)} | ${during[Math.floor(during.length / 2)].toFixed(1)} | ` +
    `${during.length} | ${seconds.toFixed(2)} | ${peakRss.toFixed(0)} |`;
}

async function throughput(
  name: string,
  make: (seed: number) => { wire: Uint8Array; decodedBytes: number },
  concurrency: number,
): Promise<string> {
  const pool = Array.from({ length: 16 }, (_, i) => make(i + 100));
  const statuses = new Map<number, number>();
  let requests = 0, decoded = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(Array.from({ length: concurrency }, async (_, w) => {
    for (let n = w; performance.now() < end; n += concurrency) {
      const body = pool[n % pool.length];
      // a fresh session id per request, so each one is a new batch (not a duplicate)
      const res = await post(body, crypto.randomUUID());
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      requests++;
      if (res.status === 204) decoded += body.decodedBytes;
    }
  }));
  return `| ${name} | ${concurrency} | ${requests} | ${(requests / SECONDS).toFixed(1)} | ` +
    `${(decoded / SECONDS / 1e6).toFixed(1)} | ${
      [...statuses].map(([s, n]) => `${n}× ${s}`).join(", ")
    } |`;
}

async function post(body: { wire: Uint8Array; gzip?: boolean }, sessionId?: string) {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "x-service-public-key": key,
    "content-encoding": "gzip",
  };
  if (sessionId) headers["x-bench-session"] = sessionId;
  const res = await fetch(`${server.url}/api/ingest`, {
    method: "POST",
    headers,
    body: sessionId ? withSession(body.wire, sessionId) : body.wire as Uint8Array<ArrayBuffer>,
  });
  await res.body?.cancel();
  return res;
}

async function timed(request: () => Promise<Response>) {
  const started = performance.now();
  const res = await request();
  await res.body?.cancel();
  return { ms: performance.now() - started, status: res.status };
}

// Bodies: gzip of JSON whose session id is a fixed-width placeholder, so a throughput run can put
// a fresh id in by re-gzipping only a tiny header member (gzip members concatenate).
const SESSION_PLACEHOLDER = "00000000-0000-4000-8000-000000000000";
const bodyCache = new Map<string, Uint8Array>();

function withSession(wire: Uint8Array, sessionId: string): Uint8Array<ArrayBuffer> {
  const json = bodyCache.get(String(wire.byteLength))!;
  const text = new TextDecoder().decode(json).replace(SESSION_PLACEHOLDER, sessionId);
  return new Uint8Array(gzipSync(new TextEncoder().encode(text), { level: 1 }));
}

function encodeBody(events: unknown[]): { wire: Uint8Array; decodedBytes: number } {
  const json = new TextEncoder().encode(JSON.stringify({
    sessionId: crypto.randomUUID(),
    events,
    metadata: {
      url: "https://shop.test/",
      referrer: "",
      userAgent: "Mozilla/5.0 (bench)",
      screenWidth: 1280,
      screenHeight: 800,
      language: "en",
    },
  }));
  const wire = new Uint8Array(gzipSync(json));
  bodyCache.set(String(wire.byteLength), json.slice());
  return { wire, decodedBytes: json.byteLength };
}

/** ~31 MiB of JSON in 100 events that gzip to ~1 MiB (DOM-like text repeats within the window). */
function largeBody(seed: number) {
  let x = seed * 7919 + 1;
  const rand = () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  const events = Array.from({ length: 100 }, (_, i) => {
    const block = Array.from({ length: 1024 }, () => "abcdefghijklmnop<>/= "[rand() % 21]).join("");
    return {
      type: 3,
      timestamp: 1_760_000_000_000 + i,
      data: { source: 0, text: block.repeat(318) },
    };
  });
  events.unshift({ type: 4, timestamp: 1_760_000_000_000 - 1, data: { source: 0, text: "meta" } });
  return encodeBody(events);
}

/** What the SDK sends most: ~25 KB of JSON in 40 small events. */
function lightBody(seed = 0) {
  const events = Array.from({ length: 40 }, (_, i) => ({
    type: 3,
    timestamp: 1_760_000_000_000 + i,
    data: { source: 2, id: seed * 100 + i, x: i * 3, y: i * 7, text: "x".repeat(500) },
  }));
  return encodeBody(events);
}

function rssMiB(pid: number): number {
  try {
    const status = Deno.readTextFileSync(`/proc/${pid}/status`);
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

function loadAverage(): string {
  return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
}
