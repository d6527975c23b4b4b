// `deno run -A bench/ingest/attacks.ts [--root DIR | --before DIR]`: the probes' body attacks on
// the real server (PostgreSQL), measured: a normal 40 KiB batch's wait while four 8 MB bodies of
// arrays nested 4,000,000 deep arrive, the server process's memory (peak RSS) over 40 parallel
// 9.9 MiB bodies, and another key's normal 40 KiB batch's wait while one key sends 20 MiB of gzip
// inflating ×45 (30 valid batches of 30 MiB of rrweb-like mutations), once and retrying its 503s.
// `--root` runs another checkout's server alone and prints; `--before` runs it, then this tree's,
// and writes both in bench/RESULTS.md.
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import { openDb } from "@/db/client.ts";
import { replaceSection } from "@/bench/results_section.ts";
import { createBenchDatabase, startServer } from "@/bench/server.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { textOfRatio } from "@/tests/helpers/gzip_bodies.ts";
import { recent } from "@/tests/helpers/times.ts";

const { values: args } = parseArgs({
  args: Deno.args,
  options: { root: { type: "string" }, before: { type: "string" } },
});
const MiB = 1024 * 1024;
const T0 = recent(1_760_000_000_000);

/** Resident and peak memory of a process, in MiB (Linux /proc). */
function memory(pid: number): { rss: number; peak: number } {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  const kib = (name: string) => Number(status.match(new RegExp(`${name}:\\s+(\\d+)`))![1]);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

function nestedBody(): string {
  const depth = 4_000_000;
  return `{"sessionId":"${crypto.randomUUID()}","events":[{"type":5,"timestamp":${T0},"data":` +
    "[".repeat(depth) + "]".repeat(depth) + "}]}";
}

const FLOOD_BODIES = 30;

/**
 * The gzip flood: batches of 500 rrweb-like mutations adding 270 text nodes each (30 MiB of JSON),
 * their texts cut from text compressing ~82×, so each body is ~45 times its gzip.
 */
function gzipFlood(): { bodies: Uint8Array<ArrayBuffer>[]; json: number; ratio: number } {
  const text = textOfRatio(256 * 1024, 82);
  let n = 0;
  const textContent = () => {
    const start = (n++ % 1_500) * 160;
    return text.slice(start, start + 160);
  };
  const events = JSON.stringify(Array.from({ length: 500 }, (_, i) => ({
    type: 3,
    timestamp: T0 + i,
    data: {
      source: 0,
      texts: [],
      attributes: [],
      removes: [],
      adds: Array.from({ length: 270 }, (_, id) => ({
        parentId: 7,
        nextId: null,
        node: { type: 3, textContent: textContent(), id },
      })),
    },
  })));
  const bodies = Array.from({ length: FLOOD_BODIES }, () => {
    const json = `{"sessionId":"${crypto.randomUUID()}","events":${events}}`;
    return new Uint8Array(gzipSync(new TextEncoder().encode(json)));
  });
  const json = events.length + 60;
  const wire = bodies.reduce((n, b) => n + b.byteLength, 0);
  return { bodies, json, ratio: (json * bodies.length) / wire };
}

const ms = (value: number) => `${value.toFixed(0)} ms`;
const statuses = (answers: number[]) =>
  [204, 400, 413, 503, 0].map((s) => [s, answers.filter((a) => a === s).length])
    .filter(([, n]) => n > 0).map(([s, n]) => `${n} × ${s}`).join(", ");

/** One server's figures, as the table's rows: [measure, value]. */
async function measure(root?: string): Promise<[string, string][]> {
  const db = await createBenchDatabase("playhead_bench_attacks");
  // A second project: the gzip flood's key is the first one's, the normal batch is this one's.
  const setup = await openDb({ kind: "postgres", url: db.url, max: 1 });
  const other = await insertProject(setup.kysely, { name: "Bench B" }).finally(() => setup.close());
  const server = await startServer(db.url, [], {}, { build: false, root });
  const ingest = (key: string, body: BodyInit, gzip = false) =>
    fetch(`${server.url}/api/ingest`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-service-public-key": key,
        ...(gzip ? { "content-encoding": "gzip" } : {}),
      },
      body,
    });
  /** A normal batch of about 40 KiB, and how long its answer took. */
  const normalBatch = async (key = db.project.key) => {
    const text = "x".repeat(40 * 1024);
    const body = JSON.stringify({
      sessionId: crypto.randomUUID(),
      events: [{ type: 3, timestamp: T0, data: { source: 0, text } }],
    });
    const start = performance.now();
    const res = await ingest(key, body);
    await res.body?.cancel();
    return { status: res.status, ms: performance.now() - start };
  };
  const rows: [string, string][] = [];
  try {
    // Warm up: both decode workers started (a body of 32 KiB and more goes to one).
    await Promise.all([normalBatch(), normalBatch()]);
    const alone = await normalBatch();
    rows.push(["normal 40 KiB batch, alone", `${alone.status} in ${ms(alone.ms)}`]);

    const nested = Array.from({ length: 4 }, nestedBody);
    const attackStart = performance.now();
    const attack = nested.map(async (body) => {
      const res = await ingest(db.project.key, body);
      await res.body?.cancel();
      return { status: res.status, ms: performance.now() - attackStart };
    });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the attack bodies are on the wire
    const during = await normalBatch();
    const attacked = await Promise.all(attack);
    rows.push([
      "the same while four 8 MB bodies nested 4,000,000 deep arrive",
      `${during.status} in ${ms(during.ms)}`,
    ]);
    rows.push([
      "the nested bodies' answers",
      attacked.map((a) => `${a.status} in ${ms(a.ms)}`).join(", "),
    ]);

    const before = memory(server.pid);
    const size = Math.floor(9.9 * MiB);
    const flood = new TextEncoder().encode(
      `{"sessionId":"${crypto.randomUUID()}","events":[` + "[],".repeat(size / 3 - 10) + "[]]}",
    );
    const answers = await Promise.all(Array.from({ length: 40 }, async () => {
      const res = await ingest(db.project.key, flood);
      await res.body?.cancel();
      return res.status;
    }));
    const after = memory(server.pid);
    rows.push(["40 parallel 9.9 MiB bodies of empty arrays: answers", statuses(answers)]);
    rows.push([
      "server memory before → peak during (growth)",
      `${before.rss.toFixed(0)} → ${after.peak.toFixed(0)} MiB (+${
        (after.peak - before.rss).toFixed(0)
      } MiB; the peak since start is ${before.peak.toFixed(0)} before)`,
    ]);

    const gzip = gzipFlood();
    const wire = gzip.bodies.reduce((n, b) => n + b.byteLength, 0);
    const sent = `${(wire / MiB).toFixed(1)} MiB of gzip inflating ×${gzip.ratio.toFixed(1)}`;
    const bodies = `${FLOOD_BODIES} batches of ${(gzip.json / MiB).toFixed(1)} MiB of JSON`;
    /** The flood from the first key, and the other key's normal batches meanwhile. */
    const floodBeside = async (retry: boolean) => {
      const floodStart = performance.now();
      const flooded = gzip.bodies.map(async (body) => {
        // As the SDK does, a retrying sender tries a 503 again after its Retry-After.
        for (let attempt = 1;; attempt++) {
          // A kept-alive connection the server closed meanwhile fails the request: status 0.
          const res = await ingest(db.project.key, body, true).catch(() => null);
          await res?.body?.cancel();
          const status = res?.status ?? 0;
          if (!retry || (status !== 503 && status !== 0) || attempt === 100) {
            return { status, ms: performance.now() - floodStart };
          }
          const after = Number(res?.headers.get("retry-after") ?? 1);
          await new Promise((resolve) => setTimeout(resolve, after * 1000));
        }
      });
      let answered = false;
      const settled = Promise.all(flooded).finally(() => answered = true);
      await new Promise((resolve) => setTimeout(resolve, 50)); // the flood is on the wire
      const first = await normalBatch(other.key);
      // Then normal batches one after another until the flood is answered (at most 10,000).
      const waits = [first];
      for (let i = 0; i < 10_000 && !answered; i++) waits.push(await normalBatch(other.key));
      const answers = await settled;
      const longest = waits.reduce((a, b) => (b.ms > a.ms ? b : a));
      const last = Math.max(...answers.map((a) => a.ms)) / 1000;
      return {
        first: `${first.status} in ${ms(first.ms)}`,
        longest: `${longest.status} in ${ms(longest.ms)} (${waits.length} sent)`,
        answers: `${statuses(answers.map((a) => a.status))}; ${last.toFixed(1)} s`,
      };
    };
    const once = await floodBeside(false);
    rows.push([
      `another key's normal 40 KiB batch while one key sends ${sent} (${bodies})`,
      once.first,
    ]);
    rows.push([
      "… the longest wait of its batches sent one after another until the flood was answered",
      once.longest,
    ]);
    rows.push(["… the flood's answers, the last one after", once.answers]);
    const retried = await floodBeside(true);
    rows.push([
      "the same flood retrying each 503 after its Retry-After (as the SDK does): the normal " +
      "batches' longest wait",
      retried.longest,
    ]);
    rows.push(["… the flood's answers, the last one after", retried.answers]);
  } finally {
    await server.stop();
    await db.drop();
  }
  return rows;
}

const load = Deno.loadavg().map((l) => l.toFixed(2)).join(" / ");
const runAt = new Date().toISOString().slice(0, 16);
const beforeRows = args.before ? await measure(args.before) : null;
const rows = await measure(args.root);
const table = beforeRows
  ? [
    "| measure | before | after |",
    "|---|---|---|",
    ...rows.map(([name, value], i) => `| ${name} | ${beforeRows[i][1]} | ${value} |`),
  ]
  : ["| measure | value |", "|---|---|", ...rows.map(([name, value]) => `| ${name} | ${value} |`)];
const lines = [
  "<!-- attacks:begin -->",
  "## Body attacks (`bench/ingest/attacks.ts`)",
  "",
  `Run ${runAt} UTC, load average ${load} at start (a shared 2-core host)` +
  (args.before ? `; before: the server of ${args.before}, then this tree's` : "") +
  (args.root ? `, server of ${args.root}` : "") + ".",
  "",
  ...table,
  "<!-- attacks:end -->",
];
console.log(lines.join("\n"));
if (!args.root) {
  await replaceSection(new URL("../RESULTS.md", import.meta.url), {
    begin: "<!-- attacks:begin -->",
    end: "<!-- attacks:end -->",
  }, lines.join("\n"));
}
