// `deno run -A bench/ingest/attacks.ts [--root DIR]`: the reliability probe's two body attacks on
// the real server (PostgreSQL), measured: a normal 40 KiB batch's wait while four 8 MB bodies of
// arrays nested 4,000,000 deep arrive, and the server process's memory (peak RSS) over 40
// parallel 9.9 MiB bodies. `--root` runs another checkout's server (a before/after comparison).
// Writes its section of bench/RESULTS.md.
import { parseArgs } from "node:util";
import { replaceSection } from "@/bench/results_section.ts";
import { createBenchDatabase, startServer } from "@/bench/server.ts";
import { recent } from "@/tests/helpers/times.ts";

const { values: args } = parseArgs({ args: Deno.args, options: { root: { type: "string" } } });
const MiB = 1024 * 1024;
const T0 = recent(1_760_000_000_000);

const db = await createBenchDatabase("playhead_bench_attacks");
const server = await startServer(db.url, [], {}, { build: false, root: args.root });
const ingest = (body: BodyInit) =>
  fetch(`${server.url}/api/ingest`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-service-public-key": db.project.key },
    body,
  });

/** A normal batch of about 40 KiB, and how long its answer took. */
async function normalBatch(): Promise<{ status: number; ms: number }> {
  const text = "x".repeat(40 * 1024);
  const body = JSON.stringify({
    sessionId: crypto.randomUUID(),
    events: [{ type: 3, timestamp: T0, data: { source: 0, text } }],
  });
  const start = performance.now();
  const res = await ingest(body);
  await res.body?.cancel();
  return { status: res.status, ms: performance.now() - start };
}

function nestedBody(): string {
  const depth = 4_000_000;
  return `{"sessionId":"${crypto.randomUUID()}","events":[{"type":5,"timestamp":${T0},"data":` +
    "[".repeat(depth) + "]".repeat(depth) + "}]}";
}

/** Resident and peak memory of a process, in MiB (Linux /proc). */
function memory(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kib = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+)`))![1]);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

const load = Deno.loadavg();
try {
  // Warm up: both decode workers started (a body of 32 KiB and more goes to one).
  await Promise.all([normalBatch(), normalBatch()]);
  const alone = await normalBatch();

  const nested = Array.from({ length: 4 }, nestedBody);
  const attackStart = performance.now();
  const attack = nested.map(async (body) => {
    const res = await ingest(body);
    await res.body?.cancel();
    return { status: res.status, ms: performance.now() - attackStart };
  });
  await new Promise((resolve) => setTimeout(resolve, 50)); // the attack bodies are on the wire
  const during = await normalBatch();
  const attacked = await Promise.all(attack);

  const before = memory(server.pid);
  const size = Math.floor(9.9 * MiB);
  const flood = new TextEncoder().encode(
    `{"sessionId":"${crypto.randomUUID()}","events":[` + "[],".repeat(size / 3 - 10) + "[]]}",
  );
  const statuses = await Promise.all(Array.from({ length: 40 }, async () => {
    const res = await ingest(flood);
    await res.body?.cancel();
    return res.status;
  }));
  const after = memory(server.pid);
  const count = (status: number) => statuses.filter((s) => s === status).length;

  const lines = [
    "<!-- attacks:begin -->",
    "## Body attacks (`bench/ingest/attacks.ts`)",
    "",
    `Run ${new Date().toISOString().slice(0, 16)} UTC, load average ${
      load.map((l) => l.toFixed(2)).join(" / ")
    } at start` +
    `${args.root ? `, server of ${args.root}` : ""}.`,
    "",
    "| measure | value |",
    "|---|---|",
    `| normal 40 KiB batch, alone | ${alone.status} in ${alone.ms.toFixed(0)} ms |`,
    `| the same while four 8 MB bodies nested 4,000,000 deep arrive | ${during.status} in ${
      during.ms.toFixed(0)
    } ms |`,
    `| the nested bodies' answers | ${
      attacked.map((a) => `${a.status} in ${a.ms.toFixed(0)} ms`).join(", ")
    } |`,
    `| 40 parallel 9.9 MiB bodies of empty arrays: answers | ${
      [204, 400, 413, 503].filter(count).map((s) => `${count(s)} × ${s}`).join(", ")
    } |`,
    `| server memory before → peak during (growth) | ${before.rss.toFixed(0)} → ${
      after.peak.toFixed(0)
    } MiB (+${(after.peak - before.rss).toFixed(0)} MiB; the peak since start is ${
      before.peak.toFixed(0)
    } before) |`,
    "<!-- attacks:end -->",
  ];
  console.log(lines.join("\n"));
  if (!args.root) {
    await replaceSection(new URL("../RESULTS.md", import.meta.url), {
      begin: "<!-- attacks:begin -->",
      end: "<!-- attacks:end -->",
    }, lines.join("\n"));
  }
} finally {
  await server.stop();
  await db.drop();
}
