// `deno task bench:sdk [--smoke] [--runs N]`: the capture SDK's budgets (docs/decisions.md
// "Performance budgets"): bundle size, and main-thread overhead of recording a heavy editor page,
// written to bench/RESULTS.md. `--peers` (against the peers' SDKs) and `--ci` (the bytes and size
// gate) are bench/sdk/peers/mod.ts.
import * as esbuild from "esbuild";
import { parseArgs } from "node:util";
import { buildSdk } from "@/sdk/build/build.ts";
import { heavyPage } from "./heavy_page.ts";
import { FULL_PLAN, SMOKE_PLAN } from "./interaction.ts";
import { startPageServer } from "./page_server.ts";
import { END, formatMarkdown, type OverheadReport, renderReport, writeSection } from "./report.ts";
import { calibrateCycles, measureRun } from "./run.ts";
import { measureSdkSize, SIZE_BUDGET } from "./size.ts";
import { machine } from "./machine.ts";
import { BUFFER_KEY, type BufferReport, heapOverTime, renderBufferMode } from "./buffer_mode.ts";
import { MAX_BUFFER_BYTES } from "@/sdk/control/trigger_buffer.ts";
import { peersMain } from "./peers/mod.ts";

if (Deno.args.includes("--peers") || Deno.args.includes("--ci")) {
  Deno.exit(await peersMain(Deno.args));
}

const { values: args } = parseArgs({
  args: Deno.args,
  options: {
    smoke: { type: "boolean", default: false },
    runs: { type: "string" },
    results: { type: "string", default: "bench/RESULTS.md" },
    "buffer-minutes": { type: "string" },
  },
});
const plan = args.smoke ? SMOKE_PLAN : FULL_PLAN;
const repeats = Number(args.runs ?? (args.smoke ? 1 : 3));
const RUN_TIMEOUT_MS = plan.seconds * 8_000 + 60_000; // a recorded run takes ~2× unrecorded
// Preview of ~9,000 markdown characters: each keystroke's mutation is ~270 KB of rrweb JSON, as
// in the corpus's editormd-full (100–300 KB); 575 KB of inlined fonts as in revealjs-demo.
const PAGE = { markdownChars: 9_000, fontKb: 575 };

log("building the SDK");
const sdkDir = await Deno.makeTempDir({ prefix: "playhead-bench-sdk-" });
const { classic } = await buildSdk({ outDir: sdkDir, dev: false });
const sdkScript = await Deno.readTextFile(`${sdkDir}/${classic}`);
await esbuild.stop();
await Deno.remove(sdkDir, { recursive: true });
const sizes = await measureSdkSize();

await using server = startPageServer((origin) => ({
  plain: heavyPage(PAGE),
  recorded: heavyPage({
    ...PAGE,
    sdk: {
      src: "/sdk/playhead.js",
      // Defaults otherwise; started by the benchmark so the full snapshot falls in the window.
      options: { apiKey: `sp_${"0".repeat(32)}`, endpoint: origin, autoStart: false },
    },
  }),
  buffered: heavyPage({
    ...PAGE,
    sdk: {
      src: "/sdk/playhead.js",
      options: { apiKey: BUFFER_KEY, endpoint: origin, autoStart: false },
    },
  }),
}), sdkScript);

const startLoad = await loadAverage();
// The smoke run skips calibration: one cycle.
if (!args.smoke) {
  log(`calibrating: cycles that fit in ${plan.seconds} s unrecorded (also warms up)`);
}
const cycles = args.smoke ? 1 : await calibrateCycles(server, plan, RUN_TIMEOUT_MS);
const pairs: OverheadReport["pairs"] = [];
const buffered = [];
for (let i = 0; i < repeats; i++) {
  const order = i % 2 === 0 ? [false, true] : [true, false];
  const results = [];
  for (const recorded of order) {
    log(`repeat ${i + 1}/${repeats}: ${recorded ? "recorded" : "unrecorded"}, ${cycles} cycles`);
    results.push(await measureRun(server, recorded, plan, cycles, RUN_TIMEOUT_MS));
  }
  const [plain, recorded] = order[0] ? results.reverse() : results;
  log(`  main thread ${ms(plain.taskMs)} → ${ms(recorded.taskMs)} ms`);
  pairs.push({ plain, recorded });
  log(`repeat ${i + 1}/${repeats}: buffered, ${cycles} cycles`);
  buffered.push(await measureRun(server, true, plan, cycles, RUN_TIMEOUT_MS, "/buffered"));
  log(`  buffered main thread ${ms(buffered.at(-1)!.taskMs)} ms`);
}
const minutes = Number(args["buffer-minutes"] ?? (args.smoke ? 0.25 : 10));
log(`buffer mode's heap over ${minutes} min, then the unrecorded page's`);
const bufferReport: BufferReport = {
  runs: buffered,
  recorded: pairs.map((p) => p.recorded),
  plain: pairs.map((p) => p.plain),
  heap: await heapOverTime(server, "/buffered", plan, minutes),
  plainHeap: await heapOverTime(server, "/plain", plan, minutes),
  minutes,
  boundBytes: MAX_BUFFER_BYTES,
};

const report: OverheadReport = {
  date: new Date().toISOString(),
  command: `deno task bench:sdk${args.smoke ? " --smoke" : ""}${
    args.runs ? ` --runs ${repeats}` : ""
  }`,
  machine: `${await machine()}; load average ${startLoad} at start, ${await loadAverage()} at end`,
  budgetBytes: SIZE_BUDGET,
  sizes,
  page: describePage(pairs[0].recorded.sink!.largestIncremental),
  cycles,
  pairs,
};
const section = await formatMarkdown(
  renderReport(report).replace(END, `${renderBufferMode(bufferReport)}\n${END}`),
);
console.log(section);
if (!args.smoke) {
  await writeSection(args.results!, section);
  log(`wrote the SDK budgets section of ${args.results}`);
}

const problems = [
  ...(sizes[0].gzipped > SIZE_BUDGET ? ["the classic script is over its size budget"] : []),
  ...pairs.flatMap((p) => [...p.plain.pageErrors, ...p.recorded.pageErrors]),
  ...pairs.filter((p) => !p.recorded.sink?.events).map(() => "a recorded run shipped no events"),
];
if (problems.length) {
  console.error(problems.join("\n"));
  Deno.exit(1);
}

function describePage(largestIncremental: number): string {
  return "The page (bench/sdk_heavy_page.ts, served from 127.0.0.1): a markdown editor like the " +
    "corpus's editormd-full, a textarea of " +
    `${PAGE.markdownChars.toLocaleString("en-US")} characters whose preview (highlighted code, ` +
    "tables, lists), outline and status bar are re-rendered with `innerHTML` on every keystroke " +
    `(up to ${(largestIncremental / 1024).toFixed(0)} KB of rrweb mutation per keystroke), ` +
    `with ${PAGE.fontKb} KB of base64 fonts and 1,500 rules inlined in a \`<style>\` like the ` +
    "corpus's revealjs-demo. The SDK (the minified classic script, default options) posts to a " +
    "sink on the same loopback server that answers 204 to everything, not the real ingest, so " +
    "only the browser's side is measured.";
}

async function loadAverage(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
}

function ms(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

function log(message: string): void {
  console.error(`[bench:sdk ${(performance.now() / 1000).toFixed(1)} s] ${message}`);
}
