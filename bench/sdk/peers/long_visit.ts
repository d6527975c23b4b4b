// `deno task bench:sdk --peers --heap-minutes 30`: each recorder's heap over a long visit of a
// reference page, on a controlled clock (Playwright's page.clock): the page's timers, Date and
// animation frames run on virtual time that the bench advances one step's slot at a time, so 30
// minutes of the page's life pass in a few minutes while the scripted steps still do the clicks,
// typing and route changes. The heap (JSHeapUsedSize after a forced GC) is read at each virtual
// minute; what a recorder holds grows past minute 5 only if it keeps what it no longer needs.
import { visitBrowser } from "./visit_browser.ts";
import type { Recorder } from "./recorder.ts";
import type { PeerServer, ReferencePage } from "./server.ts";
import type { Visit } from "./visits.ts";

export interface HeapRun {
  page: string;
  recorder: string;
  /** JSHeapUsedSize after a forced GC at each virtual minute (index 0: minute 1), bytes. */
  heapAtMinute: number[];
  /** Wall time the run took, ms. */
  wallMs: number;
  pageErrors: string[];
  /** Data requests the sink received (the recorder kept sending throughout). */
  requests: number;
}

/** Runs `minutes` virtual minutes of `visit` on `page` recorded by `recorder`. */
export async function measureLongVisit(
  server: PeerServer,
  page: ReferencePage,
  visit: Visit,
  recorder: Recorder,
  minutes: number,
): Promise<HeapRun> {
  await using browser = await visitBrowser("playhead-bench-heap-chromium-");
  const { context, tab, pageErrors } = browser;
  const started = performance.now();
  await tab.goto(`${server.url}/end`);
  const cdp = await context.newCDPSession(tab);
  const heapAfterGc = async () => {
    await cdp.send("HeapProfiler.collectGarbage");
    return (await cdp.send("Runtime.getHeapUsage")).usedSize;
  };
  server.reset();
  await tab.clock.install();
  await tab.goto(`${server.url}${page.path}?rec=${recorder.name}`, { waitUntil: "load" });
  const heapAtMinute: number[] = [];
  const steps = Math.round(minutes * 60_000 / visit.slotMs);
  for (let i = 0; i < steps; i++) {
    await visit.steps[i % visit.steps.length](tab, Math.floor(i / visit.steps.length))
      .catch((e: Error) => pageErrors.push(`step ${i}: ${e.message.split("\n")[0]}`));
    await tab.clock.runFor(visit.slotMs);
    const virtualMs = (i + 1) * visit.slotMs;
    if (virtualMs >= (heapAtMinute.length + 1) * 60_000) heapAtMinute.push(await heapAfterGc());
  }
  return {
    page: page.name,
    recorder: recorder.name,
    heapAtMinute,
    wallMs: performance.now() - started,
    pageErrors,
    requests: server.requests(recorder.name).length,
  };
}

export const HEAP_BEGIN = "<!-- sdk-heap:begin -->";
export const HEAP_END = "<!-- sdk-heap:end -->";

/** The section of bench/RESULTS.md: heap at minutes 1, 5, 10, … and the growth after minute 5. */
export function renderHeapRuns(
  runs: HeapRun[],
  labels: Record<string, string>,
  header: string,
): string {
  const minutes = runs[0]?.heapAtMinute.length ?? 0;
  const marks = [1, ...Array.from({ length: Math.floor(minutes / 5) }, (_, k) => (k + 1) * 5)]
    .filter((m) => m <= minutes);
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  const rows = runs.map((run) => {
    const at = (m: number) => run.heapAtMinute[m - 1];
    const growth = minutes >= 5 ? (at(minutes) / at(5) - 1) * 100 : NaN;
    return `| ${run.page} | ${labels[run.recorder] ?? run.recorder} | ${
      marks.map((m) => mb(at(m))).join(" | ")
    } | ${growth >= 0 ? "+" : ""}${growth.toFixed(1)} % | ${run.requests} | ${
      (run.wallMs / 1000).toFixed(0)
    } | ${run.pageErrors.length} |`;
  });
  return [
    HEAP_BEGIN,
    "",
    header,
    "",
    `| page | recorder | ${
      marks.map((m) => `heap MB, min ${m}`).join(" | ")
    } | growth min 5 → ${minutes} | requests | wall s | step errors |`,
    `| --- | --- | ${marks.map(() => "---:").join(" | ")} | ---: | ---: | ---: | ---: |`,
    ...rows,
    "",
    HEAP_END,
  ].join("\n");
}
