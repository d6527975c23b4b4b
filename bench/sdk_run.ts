// One measured run of the SDK overhead benchmark: a fresh Chromium, the heavy page, the scripted
// interaction, and the renderer main thread's time from CDP's Performance.getMetrics around it.
import { chromium, type Page } from "playwright-core";
import { interact, type Plan } from "./sdk_interaction.ts";
import type { PageServer, SinkSummary } from "./sdk_page_server.ts";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface RunResult {
  recorded: boolean;
  wallMs: number;
  /** Main-thread time (CPU time of the renderer's main thread) over the interaction, in ms. */
  taskMs: number;
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
  /** Longest task (≥ 50 ms, from the page's longtask observer) during the interaction; 0 if none. */
  longestTaskMs: number;
  /** Recorded runs: the task that ran `Playhead.start()` (Meta + full snapshot). */
  snapshot: { taskMs: number; startCallMs: number } | null;
  sink: SinkSummary | null;
  pageErrors: string[];
}

type Metrics = Record<string, number>;

/** Loads `/plain` or `/recorded` from `server` and measures `plan` on it. */
export async function measureRun(
  server: PageServer,
  recorded: boolean,
  plan: Plan,
  timeoutMs: number,
): Promise<RunResult> {
  const profile = await Deno.makeTempDir({ prefix: "playhead-bench-chromium-" });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const timer = setTimeout(() => context.close().catch(() => {}), timeoutMs);
  try {
    const page = context.pages()[0] ?? await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.on("console", (m) => m.type() === "error" && pageErrors.push(m.text()));
    await page.goto(`${server.url}/${recorded ? "recorded" : "plain"}`, { waitUntil: "load" });
    await page.waitForTimeout(1000); // first render and layout settle outside the window
    const cdp = await context.newCDPSession(page);
    // threadTicks: durations in the main thread's CPU time, so other processes on the machine
    // (this benchmark, the sink) do not inflate them.
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
    await interact(page, plan);
    if (recorded) await page.evaluate(() => (globalThis as unknown as PhWindow).ph.flush());
    const after = await metrics();
    const wallMs = performance.now() - started;
    await page.waitForTimeout(100); // longtask entries are delivered asynchronously
    const tasks = await page.evaluate(() => (globalThis as unknown as PhWindow).longTasks);
    const inWindow = tasks.filter(([at]) => at >= windowStart);
    const delta = (name: string) => (after[name] - before[name]) * 1000;
    return {
      recorded,
      wallMs,
      taskMs: delta("TaskDuration"),
      scriptMs: delta("ScriptDuration"),
      layoutMs: delta("LayoutDuration"),
      styleMs: delta("RecalcStyleDuration"),
      longestTaskMs: Math.max(0, ...inWindow.map(([, d]) => d)),
      snapshot: start && {
        // The longtask that overlaps the start() call; below 50 ms there is none, so the call.
        taskMs: Math.max(
          start.t1 - start.t0,
          ...tasks.filter(([at, d]) => at <= start.t1 && at + d >= start.t0).map(([, d]) => d),
        ),
        startCallMs: start.t1 - start.t0,
      },
      sink: recorded ? await server.summary() : null,
      pageErrors,
    };
  } finally {
    clearTimeout(timer);
    await context.close().catch(() => {});
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  }
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
