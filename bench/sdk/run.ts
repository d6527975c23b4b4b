// One measured run of the SDK overhead benchmark: a fresh Chromium, the heavy page, the scripted
// interaction, and the renderer main thread's time from CDP's Performance.getMetrics around it.
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { CHROMIUM_ARGS } from "@/tests/helpers/browser.ts";
import { calibrate, interact, type Plan } from "./interaction.ts";
import type { PageServer, SinkSummary } from "./page_server.ts";

export interface RunResult {
  recorded: boolean;
  wallMs: number;
  /** Main-thread time (CPU time of the renderer's main thread) over the interaction, in ms. */
  taskMs: number;
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
  /**
   * Longest task during the interaction in wall time (the page's longtask observer, ≥ 50 ms; 0 if
   * none), so it grows when the machine is busy.
   */
  longestTaskMs: number;
  /**
   * Recorded runs: the task that ran `Playhead.start()` (Meta + full snapshot), as main-thread CPU
   * time (the TaskDuration delta around it) and as wall time inside the page.
   */
  snapshot: { taskMs: number; wallMs: number } | null;
  /** Recorded runs: the final `flush()` of everything still buffered, measured the same way. */
  flush: { taskMs: number; wallMs: number } | null;
  /** The renderer's JS heap in use at the end (CDP `JSHeapUsedSize`). */
  heapBytes: number;
  sink: SinkSummary | null;
  pageErrors: string[];
}

type Metrics = Record<string, number>;

/** Opens `path` of `server` in a fresh Chromium (own profile) and runs `body` on the page. */
async function withPage<T>(
  server: PageServer,
  path: string,
  timeoutMs: number,
  body: (page: Page, context: BrowserContext, pageErrors: string[]) => Promise<T>,
): Promise<T> {
  const profile = await Deno.makeTempDir({ prefix: "playhead-bench-chromium-" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  // Bounded: a hung run closes its browser, which fails whatever step is waiting.
  const timer = setTimeout(() => context.close().catch(() => {}), timeoutMs);
  try {
    const page = context.pages()[0] ?? await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => m.type() === "error" && pageErrors.push(m.text()));
    await page.goto(server.url + path, { waitUntil: "load" });
    await page.waitForTimeout(1000); // first render and layout settle outside the window
    return await body(page, context, pageErrors);
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => {});
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
}

/** Runs the plan on the unrecorded page for `plan.seconds`; returns the count of cycles done. */
export function calibrateCycles(
  server: PageServer,
  plan: Plan,
  timeoutMs: number,
): Promise<number> {
  return withPage(server, "/plain", timeoutMs, (page) => calibrate(page, plan));
}

/**
 * Loads `/plain` or `/recorded` (or `path`: `/buffered`, started like a recorded page) from
 * `server` and measures `cycles` cycles of `plan` on it.
 */
export function measureRun(
  server: PageServer,
  recorded: boolean,
  plan: Plan,
  cycles: number,
  timeoutMs: number,
  path = recorded ? "/recorded" : "/plain",
): Promise<RunResult> {
  return withPage(server, path, timeoutMs, async (page, context, pageErrors) => {
    const cdp = await context.newCDPSession(page);
    // threadTicks: durations in the main thread's CPU time, so other processes on the machine
    // (this benchmark, other work) do not inflate them as they inflate wall time.
    await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
    const metrics = async (): Promise<Metrics> =>
      Object.fromEntries(
        (await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]),
      );
    server.reset();
    const before = await metrics();
    const started = performance.now();
    const windowStart = await page.evaluate(() => performance.now());
    const start = recorded ? await startRecording(page) : null;
    const afterStart = recorded ? await metrics() : before;
    await interact(page, plan, cycles);
    const beforeFlush = recorded ? await metrics() : null;
    const flushWallMs = recorded
      ? await page.evaluate(async () => {
        const t0 = performance.now();
        await (globalThis as unknown as PhWindow).ph.flush();
        return performance.now() - t0;
      })
      : 0;
    const after = await metrics();
    const wallMs = performance.now() - started;
    await page.waitForTimeout(100); // longtask entries are delivered asynchronously
    const tasks = await page.evaluate(() => (globalThis as unknown as PhWindow).longTasks);
    const delta = (name: string) => (after[name] - before[name]) * 1000;
    return {
      recorded,
      wallMs,
      taskMs: delta("TaskDuration"),
      scriptMs: delta("ScriptDuration"),
      layoutMs: delta("LayoutDuration"),
      styleMs: delta("RecalcStyleDuration"),
      longestTaskMs: Math.max(0, ...tasks.filter(([at]) => at >= windowStart).map(([, d]) => d)),
      snapshot: start && {
        taskMs: (afterStart.TaskDuration - before.TaskDuration) * 1000,
        wallMs: start.t1 - start.t0,
      },
      flush: beforeFlush && {
        taskMs: (after.TaskDuration - beforeFlush.TaskDuration) * 1000,
        wallMs: flushWallMs,
      },
      heapBytes: after.JSHeapUsedSize,
      sink: recorded ? await server.summary() : null,
      pageErrors,
    };
  });
}

interface PhWindow {
  ph: { start(): void; flush(): Promise<void> };
  longTasks: [number, number][];
}

/** Calls `Playhead.start()` (rrweb's Meta and full snapshot run synchronously inside it). */
function startRecording(page: Page): Promise<{ t0: number; t1: number }> {
  return page.evaluate(() => {
    const t0 = performance.now();
    (globalThis as unknown as PhWindow).ph.start();
    return { t0, t1: performance.now() };
  });
}
