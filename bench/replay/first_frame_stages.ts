// `deno run -A bench/replay/first_frame_stages.ts [--rounds 7]`: where a 150,000-node first frame's
// drawing goes, stage by stage, in this process (no server, no database): the stored batch's
// events read (inflated, split, the snapshot parsed), the sanitizer, the HTML writer, and the whole
// job as the frame worker runs it (with the large document's gzip). CPU time of the process
// (`process.cpuUsage`, GC threads included), which a shared host moves less than wall time; the
// minimum and the median of the rounds. Prints only.
import process from "node:process";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { RecordingSanitizer } from "@/recording/sanitize.ts";
import { batchEvents } from "@/recording/model/batch_events.ts";
import { FIRST_FRAME_LIMITS } from "@/recording/model/first_frame.ts";
import { drawFrame } from "@/core/sessions/frame_job.ts";
import { snapshotHtml, type SnapshotNode } from "@/recording/model/snapshot_html.ts";
import type { RecordedEvent } from "@/recording/decode.ts";
import { hugeRecording } from "./huge_recording.ts";

const { values } = parseArgs({ args: Deno.args, options: { rounds: { type: "string" } } });
const ROUNDS = Number(values.rounds ?? 7);
const NODES = 150_000;

const json = JSON.stringify(hugeRecording(NODES, Date.now()));
const stored = gzipSync(new TextEncoder().encode(json));

/** The stored bytes in the slices the first frame's reader is handed (64 KiB, then doubling). */
function* slices() {
  for (let from = 0, length = 64 * 1024; from < stored.length; from += length, length *= 2) {
    yield stored.subarray(from, from + length);
  }
}

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const spent: Record<string, number[]> = {};
async function stage<T>(name: string, run: () => T | Promise<T>): Promise<T> {
  const started = cpuMs();
  const result = await run();
  (spent[name] ??= []).push(cpuMs() - started);
  return result;
}

for (let round = 0; round < ROUNDS; round++) {
  const snapshot = await stage("events read (inflate, split, parse)", async () => {
    for await (const event of batchEvents(slices(), FIRST_FRAME_LIMITS.maxBytes)) {
      if (event.type === 2) return event;
    }
    throw new Error("no snapshot");
  }) as RecordedEvent;
  await stage("sanitizer", () => new RecordingSanitizer().clean(snapshot));
  await stage("HTML writer", () => snapshotHtml((snapshot.data as { node: SnapshotNode }).node));
  await stage("whole job (with the document's gzip)", () => {
    const batches = async function* () {
      yield { span: null, bytes: slices() };
    };
    return drawFrame({ kind: "first", limits: FIRST_FRAME_LIMITS }, batches());
  });
}

const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(", ");
console.log(
  `${NODES.toLocaleString("en")}-node first snapshot: ${(json.length / 2 ** 20).toFixed(2)} MiB ` +
    `of JSON, ${(stored.length / 2 ** 20).toFixed(2)} MiB stored; ${ROUNDS} rounds, CPU ms; ` +
    `load average ${load}\n`,
);
console.log("| stage | min | p50 |\n| --- | ---: | ---: |");
for (const [name, times] of Object.entries(spent)) {
  const sorted = times.sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)];
  console.log(`| ${name} | ${sorted[0].toFixed(0)} | ${p50.toFixed(0)} |`);
}
