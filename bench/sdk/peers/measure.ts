// One visit of one reference page with one recorder, in a fresh Chromium: the renderer main thread's
// CPU time (CDP Performance.getMetrics, threadTicks) from just before navigation to the visit's end,
// the heap after a forced GC at each whole minute, the longest task, and what the sink received.
import { isDataRequest, type Recorder, type SinkRequest } from "./recorder.ts";
import type { PeerServer, ReferencePage } from "./server.ts";
import { runVisit, type Visit } from "./visits.ts";
import { visitBrowser } from "./visit_browser.ts";
import { startVisitProfile } from "./cpu_profile.ts";

export interface VisitResult {
  page: string;
  recorder: string;
  /** Wall time of the scripted visit (navigation to its last step's slot end), ms. */
  visitMs: number;
  /** Renderer main-thread CPU time over the visit (load included), ms. */
  taskMs: number;
  /** Longest task seen by the page's longtask observer, ms (0: none over 50 ms). */
  longestTaskMs: number;
  /** Longest task that began once the page had loaded and the recorder had its first snapshot. */
  longestTaskRecordingMs: number;
  /** Milliseconds from navigation start to the first full snapshot's timestamp; null: unknown. */
  firstSnapshotMs: number | null;
  /** JSHeapUsedSize after a forced GC at each whole minute of the visit, bytes. */
  heapAtMinute: number[];
  /** Data requests to the sink, counting those sent when the page was left. */
  requests: SinkRequest[];
  pageErrors: string[];
}

const AFTER_LEAVING_MS = 3_000; // the last batches (keepalive, beacons) sent when the page is left

export async function measureVisit(
  server: PeerServer,
  page: ReferencePage,
  visit: Visit,
  recorder: Recorder,
  seconds: number,
): Promise<VisitResult> {
  await using browser = await visitBrowser("playhead-bench-peers-chromium-");
  const { context, tab, pageErrors } = browser;
  const timer = setTimeout(() => context.close().catch(() => {}), seconds * 3_000 + 120_000);
  try {
    if (Deno.env.get("BENCH_PEERS_CONSOLE")) {
      tab.on("console", (m) => console.error(`[page] ${m.text()}`));
    }
    // The blank page of the same origin first: the renderer that then loads the page is the one
    // whose metrics are read (a same-site navigation keeps it).
    await tab.goto(`${server.url}/end`);
    const cdp = await context.newCDPSession(tab);
    await cdp.send("Performance.enable", { timeDomain: "threadTicks" });
    const metric = async (name: string) =>
      (await cdp.send("Performance.getMetrics")).metrics.find((m) => m.name === name)!.value;
    const heapAfterGc = async () => {
      await cdp.send("HeapProfiler.collectGarbage");
      return await metric("JSHeapUsedSize");
    };
    server.reset();
    const before = await metric("TaskDuration");
    const profiler = await startVisitProfile(cdp);
    await tab.goto(`${server.url}${page.path}?rec=${recorder.name}`, { waitUntil: "load" });
    const timeOrigin = await tab.evaluate(() => performance.timeOrigin);
    const heapAtMinute: number[] = [];
    const steps = Math.round(seconds * 1000 / visit.slotMs);
    const visitMs = await runVisit(tab, visit, steps, async (elapsed) => {
      if (elapsed >= (heapAtMinute.length + 1) * 60_000) heapAtMinute.push(await heapAfterGc());
    }, pageErrors);
    const taskMs = (await metric("TaskDuration") - before) * 1000;
    await profiler?.stop(page.name, recorder.name);
    const longTasks = await tab.evaluate(() =>
      (globalThis as unknown as { longTasks: [number, number][] }).longTasks
    );
    const loadedMs = await tab.evaluate(() =>
      (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).loadEventEnd
    );
    if (recorder.flushCall) await tab.evaluate(recorder.flushCall);
    await tab.goto(`${server.url}/end`); // pagehide: what the recorder sends when a visitor leaves
    await tab.waitForTimeout(AFTER_LEAVING_MS);
    const requests = server.requests(recorder.name).filter(isDataRequest);
    const snapshotMs = await firstSnapshot(recorder, requests, timeOrigin);
    return {
      page: page.name,
      recorder: recorder.name,
      visitMs,
      taskMs,
      longestTaskMs: Math.max(0, ...longTasks.map(([, d]) => d)),
      longestTaskRecordingMs: Math.max(
        0,
        ...longTasks.filter(([at]) => at >= Math.max(loadedMs, snapshotMs ?? 0)).map(([, d]) => d),
      ),
      firstSnapshotMs: snapshotMs,
      heapAtMinute,
      requests,
      pageErrors,
    };
  } finally {
    clearTimeout(timer);
  }
}

async function firstSnapshot(
  recorder: Recorder,
  requests: SinkRequest[],
  timeOrigin: number,
): Promise<number | null> {
  if (!recorder.snapshots) return null;
  const times: number[] = [];
  for (const req of requests) {
    try {
      times.push(...await recorder.snapshots(req));
    } catch {
      // A body this reader does not understand (another kind of request) holds no snapshot.
    }
  }
  return times.length ? Math.min(...times) - timeOrigin : null;
}
