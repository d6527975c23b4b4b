// `deno run -A bench/replay/first_frame_limit.ts`: GET /replays/{id} of a session whose
// first snapshot has 150,000 nodes, with the server frame drawn (the limit lifted, as before) and
// skipped (the limit as shipped): the page's server time and size over sequential views, and how
// long an unrelated request (a 404, no database) waits while three views run at once. Same process,
// same session, one run; writes its section of bench/RESULTS.md.
import { EventType, IncrementalSource, NodeType } from "@rrweb/types";
import { FIRST_FRAME_LIMITS } from "@/player/server_frame/first_frame.ts";
import { startReplayWorld } from "@/tests/e2e/replay_world.ts";
import { closeIdleDatabases } from "@/tests/helpers/db.ts";
import { percentile } from "@/bench/stats.ts";
import { replaceSection } from "@/bench/results_section.ts";

const RESULTS = "bench/RESULTS.md";
const BEGIN = "<!-- first-frame-limit:begin -->";
const END = "<!-- first-frame-limit:end -->";
const NODES = 150_000;
const VIEWS = 5;
const START = 1_790_000_000_000;

function hugeRecording() {
  const rows = Array.from({ length: NODES / 2 }, (_, i) => ({
    type: NodeType.Element,
    id: 10 + 2 * i,
    tagName: "div",
    attributes: { class: "row", "data-i": String(i) },
    childNodes: [{
      type: NodeType.Text,
      id: 11 + 2 * i,
      textContent: `Row ${i} of a very long list`,
    }],
  }));
  const html = {
    type: NodeType.Element,
    id: 2,
    tagName: "html",
    attributes: {},
    childNodes: [
      { type: NodeType.Element, id: 3, tagName: "head", attributes: {}, childNodes: [] },
      { type: NodeType.Element, id: 4, tagName: "body", attributes: {}, childNodes: rows },
    ],
  };
  return [
    {
      type: EventType.Meta,
      timestamp: START,
      data: { href: "https://big.test/", width: 1280, height: 800 },
    },
    {
      type: EventType.FullSnapshot,
      timestamp: START + 1,
      data: {
        node: { type: NodeType.Document, id: 1, childNodes: [html] },
        initialOffset: { left: 0, top: 0 },
      },
    },
    {
      type: EventType.IncrementalSnapshot,
      timestamp: START + 500,
      data: { source: IncrementalSource.MouseMove, positions: [] },
    },
  ];
}

interface Figures {
  serverMs: number[];
  bytes: number;
  probeMaxMs: number;
  parallelMs: number;
}

const world = await startReplayWorld({ dev: false });
const events = hugeRecording();
const snapshotBytes = JSON.stringify(events[1]).length;
const sessionId = await world.record(events);
const url = `${world.url}/replays/${sessionId}`;
const headers = { cookie: world.cookie };

async function view(): Promise<{ serverMs: number; bytes: number }> {
  const res = await fetch(url, { headers });
  const body = await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`replay page answered ${res.status}`);
  const timing = res.headers.get("server-timing") ?? "";
  const serverMs = Number(/app;dur=([\d.]+)/.exec(timing)?.[1] ?? NaN);
  return { serverMs, bytes: body.byteLength };
}

/** Three views at once while a 404 is asked for again and again: the 404's longest wait. */
async function parallel(): Promise<{ probeMaxMs: number; parallelMs: number }> {
  let running = true;
  let probeMaxMs = 0;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await (await fetch(`${world.url}/api/no-such-endpoint`)).body?.cancel();
      probeMaxMs = Math.max(probeMaxMs, performance.now() - started);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  const started = performance.now();
  await Promise.all([view(), view(), view()]);
  const parallelMs = performance.now() - started;
  running = false;
  await probe;
  return { probeMaxMs, parallelMs };
}

async function measure(maxBytes: number): Promise<Figures> {
  FIRST_FRAME_LIMITS.maxBytes = maxBytes;
  await view(); // warm-up
  const views = [];
  for (let i = 0; i < VIEWS; i++) views.push(await view());
  return {
    serverMs: views.map((v) => v.serverMs),
    bytes: views[0].bytes,
    ...(await parallel()),
  };
}

const shipped = FIRST_FRAME_LIMITS.maxBytes;
const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(", ");
const before = await measure(Number.POSITIVE_INFINITY);
const after = await measure(shipped);
FIRST_FRAME_LIMITS.maxBytes = shipped;

const p50 = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(2);
const size = (bytes: number) =>
  bytes < 2 ** 20 ? `${(bytes / 1024).toFixed(0)} KiB` : `${mib(bytes)} MiB`;
const ratio = (a: number, b: number) => (a / b).toFixed(1);
const database = Deno.env.get("DATABASE_URL") ? "PostgreSQL" : "PGlite";
const section = [
  BEGIN,
  "",
  `## Replay page of a ${NODES.toLocaleString("en")}-node first snapshot`,
  "",
  `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC, load average ${load} (shared ` +
  `host), ${database}, \`deno run -A bench/replay/first_frame_limit.ts\` under ` +
  "`flock /tmp/bench.lock`. One session whose first snapshot is " +
  `${
    mib(snapshotBytes)
  } MiB of JSON; the server frame drawn (limit lifted, as before) and skipped ` +
  `(limit ${mib(shipped)} MiB, as shipped), in one process. Server time is the page's ` +
  `\`Server-Timing\` (p50 of ${VIEWS} sequential views after one warm-up); the probe is a 404 ` +
  "asked again and again while three views run at once.",
  "",
  "| | server frame drawn | skipped | ratio |",
  "| --- | ---: | ---: | ---: |",
  `| server time per view, p50 | ${p50(before.serverMs).toFixed(0)} ms | ` +
  `${p50(after.serverMs).toFixed(0)} ms | ${ratio(p50(before.serverMs), p50(after.serverMs))}× |`,
  `| page size | ${size(before.bytes)} | ${size(after.bytes)} | ` +
  `${ratio(before.bytes, after.bytes)}× |`,
  `| three parallel views, wall | ${before.parallelMs.toFixed(0)} ms | ` +
  `${after.parallelMs.toFixed(0)} ms | ${ratio(before.parallelMs, after.parallelMs)}× |`,
  `| another request's longest wait meanwhile | ${before.probeMaxMs.toFixed(0)} ms | ` +
  `${after.probeMaxMs.toFixed(0)} ms | ${ratio(before.probeMaxMs, after.probeMaxMs)}× |`,
  "",
  "Skipped, the player draws the first frame itself from the events it fetches anyway.",
  "",
  END,
].join("\n");
console.log(section);

await replaceSection(RESULTS, { begin: BEGIN, end: END }, section);
console.log(`written to ${RESULTS}`);

await world[Symbol.asyncDispose]();
await closeIdleDatabases();
