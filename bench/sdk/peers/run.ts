// The full comparison: every page visited once per recorder (no recorder first), in one run; the
// figures, Playhead's byte profile on the dashboard page, and the section of bench/RESULTS.md.
import { machine } from "@/bench/sdk/machine.ts";
import { formatMarkdown } from "@/bench/sdk/report.ts";
import { replaceSection } from "@/bench/results_section.ts";
import { type Figures, figures } from "./figures.ts";
import { measureVisit, type VisitResult } from "./measure.ts";
import {
  HEAP_BEGIN,
  HEAP_END,
  type HeapRun,
  measureLongVisit,
  renderHeapRuns,
} from "./long_visit.ts";
import { PAGES } from "./pages/mod.ts";
import { profilePlayhead } from "./profile.ts";
import { prepareRecorders } from "./recorders.ts";
import { BEGIN, END, type PeerReport, renderPeerReport } from "./report.ts";
import { startPeerServer } from "./server.ts";
import { VISITS } from "./visits.ts";

export interface PeerRunOptions {
  seconds: number;
  pages: string[];
  recorders: string[];
  /** RESULTS.md to write the section into; null prints only. */
  results: string | null;
  command: string;
}

export async function loadAverage(): Promise<string> {
  return (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(" ");
}

export function log(message: string): void {
  console.error(`[bench:sdk peers ${(performance.now() / 1000).toFixed(0)} s] ${message}`);
}

export async function runPeerComparison(opts: PeerRunOptions): Promise<Figures[]> {
  log(`preparing ${opts.recorders.join(", ")}`);
  const recorders = await prepareRecorders(opts.recorders);
  await using server = startPeerServer(PAGES, recorders);
  const loadAtStart = await loadAverage();
  const rows: Figures[] = [];
  const notRun: string[] = [];
  let dashboardPlayhead: VisitResult | null = null;
  for (const page of PAGES.filter((p) => opts.pages.includes(p.name))) {
    for (const recorder of recorders) {
      log(`${page.name}: ${recorder.name}, ${opts.seconds} s (load ${await loadAverage()})`);
      const result = await measureVisit(server, page, VISITS[page.name], recorder, opts.seconds);
      const row = figures(result);
      log(
        `  ${row.kbPerMinute.toFixed(1)} KB/min, ${row.requestsPerMinute.toFixed(1)} req/min, ` +
          `${row.cpuMsPerSecond.toFixed(1)} ms/s, longest task once recording ` +
          `${row.longestTaskRecordingMs.toFixed(0)} ms, errors ${result.pageErrors.length}`,
      );
      if (recorder.name !== "none" && result.requests.length === 0) {
        notRun.push(`${recorder.label} on the ${page.name} page sent nothing`);
      }
      rows.push(row);
      if (page.name === "dashboard" && recorder.name === "playhead") dashboardPlayhead = result;
    }
  }
  const profile = dashboardPlayhead
    ? {
      ...await profilePlayhead(dashboardPlayhead.requests),
      kbPerMinute: rows.find((r) => r.page === "dashboard" && r.recorder === "playhead")!
        .kbPerMinute,
      sentBytes: dashboardPlayhead.requests.reduce((sum, q) => sum + q.wireBytes, 0),
    }
    : null;
  const report: PeerReport = {
    date: new Date().toISOString(),
    command: opts.command,
    machine: await machine(),
    loadAverages: `${loadAtStart} at start, ${await loadAverage()} at end`,
    seconds: opts.seconds,
    labels: Object.fromEntries(recorders.map((r) => [r.name, r.label])),
    rows,
    profile,
    notRun,
  };
  const section = await formatMarkdown(renderPeerReport(report, METHOD));
  console.log(section);
  if (opts.results) {
    await replaceSection(opts.results, { begin: BEGIN, end: END }, section);
    log(`wrote the peers section of ${opts.results}`);
  }
  return rows;
}

/** The long visits on a controlled clock (bench/sdk/peers/long_visit.ts); the exit code. */
export async function runHeapComparison(
  opts: Omit<PeerRunOptions, "seconds"> & { minutes: number },
): Promise<number> {
  const recorders = await prepareRecorders(opts.recorders); // "none": the page's own heap
  await using server = startPeerServer(PAGES, recorders);
  const loadAtStart = await loadAverage();
  const runs: HeapRun[] = [];
  for (const page of PAGES.filter((p) => opts.pages.includes(p.name))) {
    for (const recorder of recorders) {
      log(`${page.name}: ${recorder.name}, ${opts.minutes} virtual minutes`);
      const run = await measureLongVisit(server, page, VISITS[page.name], recorder, opts.minutes);
      log(
        `  heap MB by minute: ${run.heapAtMinute.map((b) => (b / 2 ** 20).toFixed(1)).join(" ")}`,
      );
      runs.push(run);
    }
  }
  const header = `${new Date().toISOString()} · \`${opts.command}\` · ${await machine()} · load ` +
    `average ${loadAtStart} at start, ${await loadAverage()} at end. Each recorder's visit of ` +
    `${opts.minutes} minutes on a controlled clock (Playwright's \`page.clock\`: the page's timers, ` +
    "Date and animation frames on virtual time, advanced one step's slot at a time; the scripted " +
    "steps of bench/sdk/peers/visits.ts in a loop); JSHeapUsedSize after a forced GC at each " +
    "virtual minute. A recorder's unsent batch is part of its heap (batches of up to 60 s).";
  const labels = Object.fromEntries(recorders.map((r) => [r.name, r.label]));
  const section = await formatMarkdown(renderHeapRuns(runs, labels, header));
  console.log(section);
  if (opts.results) {
    await replaceSection(opts.results, { begin: HEAP_BEGIN, end: HEAP_END }, section);
    log(`wrote the heap section of ${opts.results}`);
  }
  return runs.some((r) => r.pageErrors.length || r.heapAtMinute.length < opts.minutes) ? 1 : 0;
}

const METHOD = "Method (`bench/sdk/peers/`): each page is served from one loopback `Deno.serve` " +
  "with the recorder's scripts in its `<head>`; each recorder posts to a sink on the same server " +
  "that answers as its service would (PostHog's remote config with recording on, Sentry's " +
  "envelope tunnel, OpenReplay's `/v1/web/start` token, Datadog's `proxy` intake, Playhead's " +
  "`/api/sdk/config` and `/api/ingest`). Each visit runs in a fresh Chromium profile: the same " +
  "scripted steps at the same moments (bench/sdk/peers/visits.ts), then the tab goes to a blank " +
  "page (pagehide: what a recorder sends when a visitor leaves) and the sink waits 3 s. Bytes are " +
  "request bodies as sent (compressed where the recorder compresses; a body cut off by leaving " +
  "the page counts at its Content-Length; headers not counted), per minute of the visit; requests " +
  "count every request to the sink but script loads. Main thread: CDP `Performance.getMetrics` " +
  "TaskDuration with `timeDomain: threadTicks` (the renderer main thread's CPU time) from just " +
  "before navigation to the visit's end, per second of visit; work a recorder moves to a Web " +
  "Worker (Sentry's, Datadog's and OpenReplay's compression) is not on the main thread and not " +
  "counted. Longest task: a `longtask` PerformanceObserver, load included (wall time); once " +
  "recording: the longest that began after the page's load event and the recorder's first full " +
  "snapshot (for no recorder, after the load event). First full " +
  "snapshot: its event's timestamp minus `performance.timeOrigin`, read from the bodies " +
  "(OpenReplay's binary format is not read). Heap: `JSHeapUsedSize` after a forced GC at 60 s " +
  "and 120 s. Byte counts do not depend on the machine's load; CPU times, longest tasks and " +
  "snapshot times do.";
