// `deno run -A bench/replay/profile_seeks.ts [recording] [--dev]`: where our page's seeks after
// keyframes spend their time. Opens the recording (a corpus name, or `documentation`), waits for
// keyframes, then runs the benchmark's 20 seeks under V8's sampling profiler and a Chromium trace:
// prints each seek's time, the main thread's rendering work during them (style, layout, paint), and
// the functions with the most self time. `--early`: the benchmark's seek to the end as soon as the
// player's frame shows, instead. `--dev` serves unminified islands, for readable names.
import type { Page } from "playwright-core";
import { loadRecording } from "@/bench/corpus_batches.ts";
import { startReplayWorld } from "@/tests/e2e/replay_world.ts";
import { closeIdleDatabases } from "@/tests/helpers/db.ts";
import { recordDocumentation } from "./documentation.ts";
import { earlySeek, OUR_SEEK, timeSeeks, UNTIL_PARSED, watchLongTasks } from "./pages.ts";
import { seekTargets } from "./targets.ts";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time (ms) by function, from V8's samples. */
function selfTimes(profile: Profile): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const file = url.split("/").at(-1) || "(native)";
    const key = `${functionName || "(anonymous)"} ${file}:${lineNumber + 1}`;
    totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i + 1] ?? 0) / 1000);
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

const RENDERING = ["UpdateLayoutTree", "Layout", "Paint", "PrePaint", "Layerize", "HitTest"];

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
}

async function profileSeeks(
  page: Page,
  seeks: () => Promise<{ times: number[]; longTasks: number[] }>,
) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
  await cdp.send("Profiler.start");
  const browser = page.context().browser()!;
  await browser.startTracing(page, { categories: ["devtools.timeline"] });
  const { times, longTasks } = await seeks();
  const trace = JSON.parse(new TextDecoder().decode(await browser.stopTracing()));
  const { profile } = await cdp.send("Profiler.stop") as { profile: Profile };
  await cdp.detach();
  const rendering = new Map<string, number>();
  for (const event of trace.traceEvents as TraceEvent[]) {
    if (event.ph === "X" && RENDERING.includes(event.name)) {
      rendering.set(event.name, (rendering.get(event.name) ?? 0) + event.dur! / 1000);
    }
  }
  return { times, longTasks, rendering, self: selfTimes(profile) };
}

const name = Deno.args.find((arg) => !arg.startsWith("--")) ?? "documentation";
const events = name === "documentation" ? await recordDocumentation() : await loadRecording(name);
{
  await using world = await startReplayWorld({ dev: Deno.args.includes("--dev") });
  const sessionId = await world.record(events);
  const { started_at } = await world.db.selectFrom("sessions").select("started_at")
    .where("id", "=", sessionId).executeTakeFirstOrThrow();
  const sessionStart = started_at.getTime();
  const { page } = await world.page();
  await watchLongTasks(page);
  await page.goto(`${world.url}/replays/${sessionId}`, UNTIL_PARSED);
  const early = Deno.args.includes("--early");
  if (!early) await page.locator("[data-keyframes=ready]").waitFor({ timeout: 300_000 });
  const { times, longTasks, rendering, self } = await profileSeeks(
    page,
    early
      ? async () => ({
        times: [await earlySeek(page, events.at(-1)!.timestamp - sessionStart)],
        longTasks: await page.evaluate(() =>
          (globalThis as unknown as { benchLongTasks: number[] }).benchLongTasks
        ),
      })
      : () => timeSeeks(page, OUR_SEEK, seekTargets()),
  );
  const round = (ms: number) => Math.round(ms);
  console.log(`${name}: seeks ${times.map(round).join(" ")} ms`);
  console.log(`  long tasks ${longTasks.map(round).join(" ")} ms`);
  console.log(`  rendering ${[...rendering].map(([k, v]) => `${k} ${round(v)}`).join(", ")} ms`);
  for (const [fn, ms] of self.slice(0, 25)) {
    console.log(`  ${round(ms).toString().padStart(6)} ${fn}`);
  }
  await page.context().close();
}
await closeIdleDatabases();
const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(", ");
console.log(`load average ${load}`);
