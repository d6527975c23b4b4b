// Buffer mode's cost (docs/decisions.md "Capture control"): the heavy page with sampling off and the
// error trigger on, so the SDK keeps the session in its trigger buffer and sends nothing; its
// main-thread time is measured like full recording's (run.ts), and its JS heap over a long stay
// against the buffer's bound (sdk/control/trigger_buffer.ts).
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS } from "@/tests/helpers/browser.ts";
import { interact, type Plan } from "./interaction.ts";
import type { PageServer } from "./page_server.ts";
import type { RunResult } from "./run.ts";

/** The buffered page's key: the sink answers it with BUFFER_SETTINGS, any other key with 404. */
export const BUFFER_KEY = `sp_${"1".repeat(32)}`;
export const BUFFER_SETTINGS = {
  sampleRate: 0,
  minDurationMs: 0,
  urlBlock: [],
  urlAllow: [],
  triggers: ["error"],
  bufferMs: 60_000,
};

export interface HeapSample {
  minute: number;
  heapBytes: number;
}

/**
 * Keeps `path` open for `minutes`, running the plan's cycles, and samples the renderer's JS heap
 * (CDP `JSHeapUsedSize`, after a garbage collection) about every 30 s.
 */
export async function heapOverTime(
  server: PageServer,
  path: string,
  plan: Plan,
  minutes: number,
): Promise<HeapSample[]> {
  const profile = await Deno.makeTempDir({ prefix: "playhead-bench-heap-" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  try {
    const page = context.pages()[0] ?? await context.newPage();
    await page.goto(server.url + path, { waitUntil: "load" });
    await page.evaluate(() => (globalThis as unknown as { ph?: { start(): void } }).ph?.start());
    const cdp = await context.newCDPSession(page);
    await cdp.send("Performance.enable");
    const heap = async () => {
      await cdp.send("HeapProfiler.collectGarbage");
      const { metrics } = await cdp.send("Performance.getMetrics");
      return metrics.find((m) => m.name === "JSHeapUsedSize")!.value;
    };
    const samples: HeapSample[] = [{ minute: 0, heapBytes: await heap() }];
    const started = performance.now();
    const end = started + minutes * 60_000;
    let next = started + 30_000;
    while (performance.now() < end) {
      await interact(page, plan, 1);
      if (performance.now() >= next || performance.now() >= end) {
        samples.push({ minute: (performance.now() - started) / 60_000, heapBytes: await heap() });
        next += 30_000;
      }
    }
    return samples;
  } finally {
    await context.close().catch(() => {});
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

export interface BufferReport {
  /** Buffered runs, one per repeat, beside the repeats' recorded runs. */
  runs: RunResult[];
  recorded: RunResult[];
  plain: RunResult[];
  heap: HeapSample[];
  /** The plain page's heap over the same minutes, for the buffer's own share. */
  plainHeap: HeapSample[];
  minutes: number;
  boundBytes: number;
}

/** The `### Buffer mode` part of the SDK budgets section. */
export function renderBufferMode(b: BufferReport): string {
  const med = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor((xs.length - 1) / 2)];
  const task = (runs: RunResult[]) => med(runs.map((r) => r.taskMs));
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  const maxHeap = Math.max(...b.heap.map((s) => s.heapBytes));
  const maxPlain = Math.max(...b.plainHeap.map((s) => s.heapBytes));
  const sent = b.runs.reduce((n, r) => n + (r.sink?.requests ?? 0), 0);
  return [
    "### Buffer mode",
    "",
    "The same page and cycles with sampling at 0 and the error trigger on (`bench/sdk/" +
    "buffer_mode.ts`): the SDK keeps the session in its trigger buffer and sends nothing " +
    `(${sent} ingest requests in ${b.runs.length} buffered runs).`,
    "",
    "| run | main thread ms | JS heap at the end |",
    "|---|---:|---:|",
    `| unrecorded | ${Math.round(task(b.plain))} | ${mb(med(b.plain.map((r) => r.heapBytes)))} |`,
    `| recorded | ${Math.round(task(b.recorded))} | ${
      mb(med(b.recorded.map((r) => r.heapBytes)))
    } |`,
    `| buffered | ${Math.round(task(b.runs))} | ${mb(med(b.runs.map((r) => r.heapBytes)))} |`,
    "",
    `**Main-thread time buffered ÷ recorded: ${
      (task(b.runs) / task(b.recorded)).toFixed(2)
    }×.** Over ${b.minutes} min of cycles the buffered page's JS heap (after a collection, ` +
    `every ~30 s) peaked at ${mb(maxHeap)}, the unrecorded page's at ${mb(maxPlain)}: ` +
    `${mb(maxHeap - maxPlain)} more. Of that, the buffer is bounded at ${mb(b.boundBytes)} of ` +
    "event JSON (sdk/control/trigger_buffer.ts); the rest is rrweb's recorder state (its map of the " +
    "page's nodes), which full recording holds too: the recorded page's heap at the end was " +
    `${mb(med(b.recorded.map((r) => r.heapBytes)))}, the buffered page's ` +
    `${mb(med(b.runs.map((r) => r.heapBytes)))}.`,
    "",
    `Heap samples (min: buffered / unrecorded): ${
      b.heap.map((s, i) =>
        `${s.minute.toFixed(1)}: ${mb(s.heapBytes)} / ${
          b.plainHeap[i] ? mb(b.plainHeap[i].heapBytes) : "–"
        }`
      ).join(", ")
    }.`,
  ].join("\n");
}
