// Renders the SDK budgets benchmark as the `## SDK budgets` section of bench/RESULTS.md, and
// replaces that section (between its markers) in the file, leaving other sections alone.
import type { BundleSize } from "./size.ts";
import type { RunResult } from "./run.ts";

export const BEGIN = "<!-- sdk:begin -->";
export const END = "<!-- sdk:end -->";

export interface OverheadReport {
  date: string;
  command: string;
  machine: string;
  budgetBytes: number;
  sizes: BundleSize[];
  page: string;
  cycles: number;
  /** Unrecorded and recorded run of each repeat, in the order they ran. */
  pairs: { plain: RunResult; recorded: RunResult }[];
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const ms = (n: number) => Math.round(n).toLocaleString("en-US");

export function renderReport(r: OverheadReport): string {
  const [classic] = r.sizes;
  const within = classic.gzipped <= r.budgetBytes;
  const ratios = r.pairs.map((p) => p.recorded.taskMs / p.plain.taskMs);
  const ratio = median(ratios);
  const col = (runs: RunResult[], f: (x: RunResult) => number) => ms(median(runs.map(f)));
  const plain = r.pairs.map((p) => p.plain);
  const rec = r.pairs.map((p) => p.recorded);
  const row = (name: string, runs: RunResult[]) =>
    `| ${name} | ${(median(runs.map((x) => x.wallMs)) / 1000).toFixed(1)} | ${
      col(runs, (x) => x.taskMs)
    } | ${col(runs, (x) => x.scriptMs)} | ${col(runs, (x) => x.layoutMs)} | ${
      col(runs, (x) => x.styleMs)
    } | ${col(runs, (x) => x.longestTaskMs)} |`;
  const snapCpu = median(rec.map((x) => x.snapshot!.taskMs));
  const snapWall = median(rec.map((x) => x.snapshot!.wallMs));
  const sink = (f: (x: NonNullable<RunResult["sink"]>) => number) =>
    median(rec.map((x) => f(x.sink!)));
  const addedMs = median(r.pairs.map((p) => p.recorded.taskMs - p.plain.taskMs));
  const seconds = median(plain.map((x) => x.wallMs)) / 1000;
  return [
    BEGIN,
    "## SDK budgets",
    "",
    `${r.date} · \`${r.command}\` · ${r.machine}`,
    "",
    "### Size (budget: classic script ≤ 38 KB gzipped)",
    "",
    "| bundle | minified | gzip -9 |",
    "|---|---:|---:|",
    ...r.sizes.map((s) => `| ${s.name} | ${kb(s.minified)} | ${kb(s.gzipped)} |`),
    "",
    `Classic script: ${classic.gzipped.toLocaleString("en-US")} B gzipped, ${
      within ? "within" : "**over**"
    } the ${r.budgetBytes.toLocaleString("en-US")} B budget (${
      (classic.gzipped / r.budgetBytes * 100).toFixed(0)
    } %).`,
    "",
    "### Overhead on a heavy page",
    "",
    r.page,
    "",
    `${r.cycles} cycles of typing, scrolling and clicking (as many as fit in the plan's seconds on ` +
    `the unrecorded page); ${r.pairs.length} repeat(s), each an unrecorded and a recorded run in a ` +
    "fresh Chromium, alternating which goes first; medians. Main-thread times are CDP " +
    "`Performance.getMetrics` deltas with `timeDomain: threadTicks` (CPU time of the renderer's " +
    "main thread), from just before `Playhead.start()` to the end of the final `flush()`; the " +
    "longest task is wall time from a `longtask` PerformanceObserver.",
    "",
    "| run | wall s | main thread ms | script ms | layout ms | style ms | longest task ms |",
    "|---|---:|---:|---:|---:|---:|---:|",
    row("unrecorded", plain),
    row("recorded", rec),
    "",
    `**Main-thread time recorded ÷ unrecorded: ${ratio.toFixed(2)}×** (per repeat: ${
      ratios.map((x) => x.toFixed(2)).join(", ")
    }); recording added ${ms(addedMs)} ms over ${seconds.toFixed(0)} s of interaction.`,
    "",
    `**Full snapshot's task (\`Playhead.start()\`): ${ms(snapCpu)} ms** main-thread CPU ` +
    `(${ms(snapWall)} ms wall), for a ${kb(sink((s) => s.largestSnapshot))} snapshot event. ` +
    `The final \`flush()\` of what was still buffered took ${
      ms(median(rec.map((x) => x.flush!.taskMs)))
    } ms of main-thread CPU (${ms(median(rec.map((x) => x.flush!.wallMs)))} ms wall).`,
    "",
    `Shipped per recorded run: ${ms(sink((s) => s.events))} events in ${
      ms(sink((s) => s.requests))
    } requests, ${kb(sink((s) => s.wireBytes))} on the wire (gzipped); largest incremental ` +
    `event ${kb(sink((s) => s.largestIncremental))}.`,
    "",
    interpretation(r.pairs, seconds),
    END,
  ].join("\n");
}

/** Formats Markdown as `deno fmt` would, so the shared file stays `deno fmt --check` clean. */
export async function formatMarkdown(text: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=md", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const { success, stdout } = await child.output();
  if (!success) throw new Error("deno fmt failed on the report");
  return new TextDecoder().decode(stdout).trimEnd();
}

/** Replaces the section between the markers in `path`, or appends it (creating the file). */
export async function writeSection(path: string, section: string): Promise<void> {
  let text = "";
  try {
    text = await Deno.readTextFile(path);
  } catch (e) {
    if (!(e instanceof Deno.errors.NotFound)) throw e;
  }
  const begin = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (begin >= 0 && end > begin) {
    text = text.slice(0, begin) + section + text.slice(end + END.length);
  } else {
    text = text ? `${text.trimEnd()}\n\n${section}\n` : `# Benchmark results\n\n${section}\n`;
  }
  await Deno.writeTextFile(path, text);
}

/** What the numbers say: the added time per second of interaction, and where it went. */
function interpretation(pairs: OverheadReport["pairs"], seconds: number): string {
  const added = (f: (x: RunResult) => number) =>
    median(pairs.map((p) => f(p.recorded) - f(p.plain)));
  const total = added((x) => x.taskMs);
  const script = added((x) => x.scriptMs);
  const render = added((x) => x.layoutMs + x.styleMs);
  return `Reading: recording this page costs ${ms(total / seconds)} ms of main-thread CPU per ` +
    `second of interaction; script accounts for ${ms(script)} ms of the ${ms(total)} ms added ` +
    "(rrweb serializing every re-rendered preview and the snapshot, then JSON and gzip for the " +
    `upload), layout and style for ${ms(render)} ms. The page is a heavy case by design (a ` +
    "~260 KB mutation per keystroke, as in the corpus's heaviest recording). Wall times and the " +
    "longest task are wall-clock and move with the machine's load; the CPU-time columns and the " +
    "ratio are the figures to compare between runs.";
}
