// `deno run -A bench/replay/first_frame_limit.ts`: GET /replays/{id} of sessions whose first
// snapshot has 150,000 nodes, three ways in one process: the frame drawn in the frame worker (as
// shipped), drawn on the main thread (as before the worker, the old limit lifted), and skipped
// (the old 1 MiB limit). For each: the first view's and a cached view's server time, the page's
// size, and, while 8 views run at once (of one page, then of 8 different pages), how long an
// unrelated request (a 404, no database) waits at most. The client runs in a Worker
// (`burst_client.ts`), so the server's thread carries only the server. Writes its section of
// bench/RESULTS.md.
import { FramePool } from "@/core/sessions/frame_pool.ts";
import { FIRST_FRAME_LIMITS } from "@/recording/model/first_frame.ts";
import { drawFrame, type FrameBatch, type FrameJob } from "@/core/sessions/frame_job.ts";
import { startReplayWorld } from "@/tests/e2e/replay_world.ts";
import { closeIdleDatabases } from "@/tests/helpers/db.ts";
import { percentile } from "@/bench/stats.ts";
import { replaceSection } from "@/bench/results_section.ts";
import type { Burst, ClientRequest, View } from "./burst_client.ts";
import { hugeRecording } from "./huge_recording.ts";
import { recent } from "@/tests/helpers/times.ts";

const RESULTS = "bench/RESULTS.md";
const BEGIN = "<!-- first-frame-limit:begin -->";
const END = "<!-- first-frame-limit:end -->";
const NODES = 150_000;
const VIEWS = 5;
const PARALLEL = 8;
const START = recent(1_790_000_000_000);
const TARGET_PROBE_MS = 100;
const TARGET_FIRST_VIEW_MS = 500;

/** The drawing as it was before the worker: on the main thread, with nothing else changed. */
class MainThreadFrames extends FramePool {
  override draw(job: FrameJob, batches: AsyncIterable<FrameBatch>) {
    return drawFrame(job, batches);
  }
}

interface Figures {
  firstMs: number;
  cachedMs: number[];
  bytes: number;
  onePage: Burst;
  manyPages: Burst;
  abandoned: number;
}

const world = await startReplayWorld({ dev: false });
const events = hugeRecording(NODES, START);
const snapshotBytes = JSON.stringify(events[1]).length;
const workerPool = world.deps.frames.pool;

const client = new Worker(new URL("./burst_client.ts", import.meta.url), { type: "module" });

/** One request of the client worker, answered when it is done. */
function ask<T>(request: DistributiveOmit<ClientRequest, "url" | "cookie">): Promise<T> {
  return new Promise((resolve, reject) => {
    client.onmessage = ({ data }) => resolve(data);
    client.onerror = (event) => reject(event.error ?? new Error(event.message));
    client.postMessage({ ...request, url: world.url, cookie: world.cookie });
  });
}
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const views = (sessionId: string, count: number) =>
  ask<View[]>({ kind: "views", sessionId, count });
const burst = (sessions: string[]) => ask<Burst>({ kind: "burst", sessions });

/** Fresh sessions for one way of drawing (so nothing is cached from another). */
async function recordSessions() {
  const one = await world.record(events);
  const burstOne = await world.record(events);
  const burstMany = [];
  for (let i = 0; i < PARALLEL; i++) burstMany.push(await world.record(events));
  return { one, burstOne, burstMany };
}

async function measure(sessions: Awaited<ReturnType<typeof recordSessions>>): Promise<Figures> {
  const abandoned = workerPool.abandoned;
  const [first, ...cached] = await views(sessions.one, 1 + VIEWS);
  return {
    firstMs: first.serverMs,
    cachedMs: cached.map((v) => v.serverMs),
    bytes: first.bytes,
    onePage: await burst(Array(PARALLEL).fill(sessions.burstOne)),
    manyPages: await burst(sessions.burstMany),
    abandoned: workerPool.abandoned - abandoned,
  };
}

const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(", ");
const planned = {
  worker: await recordSessions(),
  mainThread: await recordSessions(),
  skipped: await recordSessions(),
};
// Warm-up: the worker started and the page's code compiled by a small page's frame.
await views(await world.record(hugeRecording(1_000, START)), 1);

const worker = await measure(planned.worker);
world.deps.frames.pool = new MainThreadFrames();
const mainThread = await measure(planned.mainThread);
world.deps.frames.pool = workerPool;
const shippedBytes = FIRST_FRAME_LIMITS.maxBytes;
FIRST_FRAME_LIMITS.maxBytes = 1024 * 1024;
const skipped = await measure(planned.skipped);
FIRST_FRAME_LIMITS.maxBytes = shippedBytes;

const p50 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
const size = (bytes: number) =>
  bytes < 2 ** 20 ? `${(bytes / 1024).toFixed(0)} KiB` : `${mib(bytes)} MiB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const database = Deno.env.get("DATABASE_URL") ? "PostgreSQL" : "PGlite";
const ways = [worker, mainThread, skipped];
const row = (label: string, cell: (f: Figures) => string) =>
  `| ${label} | ${ways.map(cell).join(" | ")} |`;
const bursts = (name: string, pick: (f: Figures) => Burst) => [
  row(`${name}: wall`, (f) => ms(pick(f).wallMs)),
  row(`${name}: a 404's longest wait`, (f) => ms(pick(f).probeMaxMs)),
  row(`${name}: pages with a frame`, (f) => `${pick(f).framed} / ${PARALLEL}`),
];
const section = [
  BEGIN,
  "",
  `## Replay page of a ${NODES.toLocaleString("en")}-node first snapshot`,
  "",
  `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load average ${load} (shared ` +
  `host), ${database}, \`deno run -A bench/replay/first_frame_limit.ts\`. ` +
  "Sessions whose first snapshot is " +
  `${
    mib(snapshotBytes)
  } MiB of JSON, fresh ones for each way, in one process, the client in a Worker of its own: ` +
  "the frame drawn in the frame worker (as shipped), on the main thread (as before the worker, " +
  "the old limit lifted), and skipped (the old 1 MiB limit). Server time is the page's " +
  `\`Server-Timing\`: the first view (target: ≤ ${TARGET_FIRST_VIEW_MS} ms, as shipped), then ` +
  `the p50 of ${VIEWS} views answered from the frame ` +
  `cache. Then ${PARALLEL} views at once of one uncached page, and of ${PARALLEL} different ` +
  "uncached pages, while a 404 is asked for again and again (target: its longest wait " +
  `≤ ${TARGET_PROBE_MS} ms).`,
  "",
  "| | worker (shipped) | main thread (before) | skipped (1 MiB limit) |",
  "| --- | ---: | ---: | ---: |",
  row("first view, server time", (f) => ms(f.firstMs)),
  row("cached view, server time p50", (f) => ms(p50(f.cachedMs))),
  row("page size (and its frame document, when it loads one)", (f) => size(f.bytes)),
  ...bursts(`${PARALLEL} views of one page`, (f) => f.onePage),
  ...bursts(`${PARALLEL} views of ${PARALLEL} pages`, (f) => f.manyPages),
  row("jobs abandoned past the 3 s budget", (f) => String(f.abandoned)),
  "",
  "Skipped, the player draws the first frame itself from the events it fetches anyway. A page " +
  "whose frame was not drawn in time (its turn came after 3 s, or its drawing passed 3 s) opens " +
  "the same way.",
  "",
  END,
].join("\n");
console.log(section);

await replaceSection(RESULTS, { begin: BEGIN, end: END }, section);
console.log(`written to ${RESULTS}`);

client.terminate();
await world[Symbol.asyncDispose]();
await closeIdleDatabases();
// The app's workers ended with its deps (AppDeps.close()); the exit stays so that nothing else
// left behind keeps a finished benchmark running.
Deno.exit(0);
