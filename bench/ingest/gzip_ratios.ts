// `deno run -A bench/ingest/gzip_ratios.ts`: how far the corpus' ingest bodies inflate, the
// figure the inflation ratio allowed past 256 KiB (http/body.ts MAX_GZIP_RATIO) is chosen above.
// For each recording, the bodies over 256 KiB of JSON: as the benchmark's workloads cut them
// (bench/corpus_batches.ts), as the SDK cuts them at every flush interval from 100 ms to 60 s
// (≤ 500 events and ≤ 2 MiB), and every run of consecutive events just over 256 KiB (the most
// compressible body any cut could make), gzipped at level 6 (CompressionStream's) and 9.
// Writes its section of bench/RESULTS.md.
import { gzipSync } from "node:zlib";
import { replaceSection } from "@/bench/results_section.ts";
import {
  cutSession,
  listRecordings,
  loadRecording,
  MAX_EVENTS_PER_REQUEST,
  type RrwebEvent,
  SDK_FLUSH_AT_EVENTS,
  SDK_FLUSH_INTERVAL_MS,
} from "@/bench/corpus_batches.ts";
import { MAX_REQUEST_BYTES } from "@/sdk/send/buffer.ts";

const FREE_BYTES = 256 * 1024;
const encoder = new TextEncoder();

interface Most {
  bodies: number;
  level6: number;
  level9: number;
}

/** The body of `events` as the SDK sends it (a session id, no metadata). */
const body = (events: RrwebEvent[]) =>
  encoder.encode(JSON.stringify({ sessionId: crypto.randomUUID(), events }));

/** The largest ratios among the bodies over 256 KiB of `batches`. */
function most(batches: RrwebEvent[][]): Most {
  const out = { bodies: 0, level6: 0, level9: 0 };
  for (const events of batches) {
    const json = body(events);
    if (json.byteLength <= FREE_BYTES) continue;
    out.bodies++;
    out.level6 = Math.max(out.level6, json.byteLength / gzipSync(json, { level: 6 }).byteLength);
    out.level9 = Math.max(out.level9, json.byteLength / gzipSync(json, { level: 9 }).byteLength);
  }
  return out;
}

/** A flush cut further as the SDK does: ≤ 500 events and ≤ 2 MiB of JSON per request. */
function sdkRequests(flush: RrwebEvent[]): RrwebEvent[][] {
  const out: RrwebEvent[][] = [];
  let current: RrwebEvent[] = [];
  let bytes = 0;
  for (const event of flush) {
    const size = JSON.stringify(event).length + 1;
    const full = current.length >= MAX_EVENTS_PER_REQUEST || bytes + size > MAX_REQUEST_BYTES;
    if (current.length > 0 && full) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(event);
    bytes += size;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Every run of consecutive events (≤ 500) whose body is just over 256 KiB. */
function smallestRuns(events: RrwebEvent[]): RrwebEvent[][] {
  const sizes = events.map((event) => JSON.stringify(event).length + 1);
  const runs: RrwebEvent[][] = [];
  let end = 0;
  let size = 60; // the envelope
  for (let start = 0; start < events.length; start++) {
    while (end < events.length && size <= FREE_BYTES) size += sizes[end++];
    if (size <= FREE_BYTES) break;
    if (end - start <= MAX_EVENTS_PER_REQUEST) runs.push(events.slice(start, end));
    size -= sizes[start];
  }
  return runs;
}

const intervals = [
  ...Array.from({ length: 30 }, (_, i) => (i + 1) * 100),
  5_000,
  10_000,
  30_000,
  SDK_FLUSH_INTERVAL_MS,
];
const fmt = (m: Most) => m.bodies ? `${m.level6.toFixed(1)} / ${m.level9.toFixed(1)}` : "–";
const rows: string[] = [];
const overall = { bench: 0, sdk: 0, runs: 0, runs6: 0 };
const started = new Date().toISOString().slice(0, 16);
for (const name of await listRecordings()) {
  const events = await loadRecording(name);
  const cut = (flushIntervalMs: number) =>
    cutSession(events, { flushIntervalMs, flushAtEvents: SDK_FLUSH_AT_EVENTS })
      .map((batch) => batch.events);
  const bench = most([...cut(SDK_FLUSH_INTERVAL_MS), ...cut(5_000)]);
  const sdk = most(intervals.flatMap((ms) => cut(ms).flatMap(sdkRequests)));
  const runs = most(smallestRuns(events));
  overall.bench = Math.max(overall.bench, bench.level9);
  overall.sdk = Math.max(overall.sdk, sdk.level9);
  overall.runs = Math.max(overall.runs, runs.level9);
  overall.runs6 = Math.max(overall.runs6, runs.level6);
  rows.push(
    `| ${name} | ${bench.bodies} | ${fmt(bench)} | ${sdk.bodies} | ${fmt(sdk)} | ${runs.bodies} | ${
      fmt(runs)
    } |`,
  );
  console.error(`${name} done`);
}

const lines = [
  "<!-- gzip-ratios:begin -->",
  "## Inflation ratios of the corpus' bodies (`bench/ingest/gzip_ratios.ts`)",
  "",
  `Run ${started} UTC. JSON bytes ÷ gzip bytes of every body over 256 KiB of JSON, at gzip level ` +
  "6 (CompressionStream's) / 9; bodies counted with repeats across cuts.",
  "",
  "| recording | workload bodies | most | SDK-cut bodies (flush 0.1–60 s) | most | " +
  "runs just over 256 KiB | most |",
  "|---|---|---|---|---|---|---|",
  ...rows,
  "",
  `The most compressible body: ${overall.bench.toFixed(1)}× as the workloads cut the corpus, ` +
  `${overall.sdk.toFixed(1)}× as the SDK would at some flush interval, ` +
  `${overall.runs.toFixed(1)}× (${overall.runs6.toFixed(1)}× at level 6) for any run of ` +
  "consecutive events; the ratio allowed past 256 KiB is 48× (http/body.ts).",
  "<!-- gzip-ratios:end -->",
];
console.log(lines.join("\n"));
await replaceSection(new URL("../RESULTS.md", import.meta.url), {
  begin: "<!-- gzip-ratios:begin -->",
  end: "<!-- gzip-ratios:end -->",
}, lines.join("\n"));
