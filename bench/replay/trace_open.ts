// `deno run -A bench/replay/trace_open.ts [recording]`: a Chromium trace of one `?t=` open of a
// corpus recording at its last moment on the production build (after one unmeasured visit), read
// back as what the page's main thread does from navigation to that frame: its tasks of 5 ms or
// more, what each spent its time in, and the page's own loading marks.
import type { Page } from "playwright-core";
import { loadRecording } from "@/bench/corpus_batches.ts";
import { startReplayWorld } from "@/tests/e2e/replay_world.ts";
import { closeIdleDatabases } from "@/tests/helpers/db.ts";
import { ourFrameAt, UNTIL_PARSED } from "./pages.ts";

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "blink.user_timing",
  "loading",
  "toplevel",
];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string } };
}

/** The renderer main thread that parsed the replay page's HTML. */
function mainThread(events: TraceEvent[]): { pid: number; tid: number } {
  const parse = events.find((e) =>
    e.name === "ParseHTML" && (e.args as { beginData?: { url?: string } })?.beginData?.url
      ?.includes("/replays/")
  );
  if (!parse) throw new Error("no ParseHTML of the replay page in the trace");
  return { pid: parse.pid, tid: parse.tid };
}

/** Trace slices that only wrap the work inside them. */
const WRAPPERS = new Set([
  "ThreadControllerImpl::RunTask",
  "BlinkScheduler_PerformMicrotaskCheckpoint",
  "RunMicrotasks",
]);

/** Top-level tasks of `thread` with the time of their outermost named work, by name. */
function tasks(events: TraceEvent[], thread: { pid: number; tid: number }) {
  const mine = events.filter((e) =>
    e.pid === thread.pid && e.tid === thread.tid && e.ph === "X" && e.dur !== undefined
  ).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const found: { start: number; dur: number; parts: Map<string, number> }[] = [];
  let open: { end: number; parts: Map<string, number>; childEnd: number } | null = null;
  for (const event of mine) {
    if (event.name === "RunTask") {
      const parts = new Map<string, number>();
      found.push({ start: event.ts, dur: event.dur!, parts });
      open = { end: event.ts + event.dur!, parts, childEnd: event.ts };
    } else if (
      open && !WRAPPERS.has(event.name) && event.ts < open.end && event.ts >= open.childEnd
    ) {
      open.parts.set(event.name, (open.parts.get(event.name) ?? 0) + event.dur!);
      open.childEnd = event.ts + event.dur!;
    }
  }
  return found;
}

async function marks(page: Page) {
  return await page.evaluate(() => {
    const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const paint = performance.getEntriesByName("first-paint")[0]?.startTime ?? null;
    const resources = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
      .map((r) =>
        [
          r.name.split("/").at(-1)!.slice(0, 40),
          r.nextHopProtocol,
          ...[r.startTime, r.requestStart, r.responseStart, r.responseEnd].map(Math.round),
        ].join(" ")
      );
    return {
      responseEnd: nav.responseEnd,
      domInteractive: nav.domInteractive,
      domContentLoaded: [nav.domContentLoadedEventStart, nav.domContentLoadedEventEnd],
      firstPaint: paint,
      resources,
    };
  });
}

const name = Deno.args[0] ?? "todomvc-react";
const events = await loadRecording(name);
{
  await using world = await startReplayWorld({ dev: false });
  const sessionId = await world.record(events);
  const { started_at } = await world.db.selectFrom("sessions").select("started_at")
    .where("id", "=", sessionId).executeTakeFirstOrThrow();
  const last = events.at(-1)!.timestamp - started_at.getTime();
  const url = `${world.url}/replays/${sessionId}?t=${last}`;
  const warm = await world.page();
  await warm.page.goto(url, UNTIL_PARSED);
  await ourFrameAt(warm.page, last);
  await warm.page.context().close();

  const { page } = await world.page();
  await world.browser.startTracing(page, { categories: CATEGORIES });
  await page.goto(url, UNTIL_PARSED);
  const frameAt = await ourFrameAt(page, last);
  const trace = JSON.parse(new TextDecoder().decode(await world.browser.stopTracing()));
  const pageMarks = await marks(page);
  await page.context().close();

  const all: TraceEvent[] = trace.traceEvents;
  const thread = mainThread(all);
  const navigation = all.find((e) => e.name === "navigationStart" && e.pid === thread.pid)!.ts;
  const ms = (us: number) => Math.round(us / 1000);
  console.log(
    `${name}: frame at ${Math.round(frameAt)} ms; marks`,
    JSON.stringify(pageMarks, null, 1),
  );
  let busy = 0;
  for (const task of tasks(all, thread)) {
    const at = task.start - navigation;
    if (at < 0 || at > frameAt * 1000) continue;
    busy += task.dur;
    if (task.dur < 5000) continue;
    const parts = [...task.parts].sort((a, b) => b[1] - a[1]).slice(0, 4)
      .map(([part, dur]) => `${part} ${ms(dur)}`).join(", ");
    console.log(`  ${ms(at)}–${ms(at + task.dur)} ms (${ms(task.dur)}): ${parts}`);
  }
  console.log(`  main thread busy ${ms(busy)} of ${Math.round(frameAt)} ms`);
}
await closeIdleDatabases();
const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(", ");
console.log(`load average ${load}`);
