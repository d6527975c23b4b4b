// `deno task bench:replay`: the replay page against a plain rrweb Replayer page on every
// corpus recording, a long documentation page recorded with the SDK (`documentation.ts`) and a
// synthetic 1-hour session, posted through ingest to a real server:
// first frame (median of three visits), all-decoded time, seek p50/max over 20 random targets,
// long tasks during the seeks and during 2× playback, heap after load. Writes its section of bench/RESULTS.md; `--only=todomvc-react,flot-canvas`
// (names, "documentation" or "synthetic") measures just those and only prints the rows.
import type { Page } from "playwright-core";
import { listRecordings, loadRecording, type RrwebEvent } from "@/bench/corpus_batches.ts";
import { percentile } from "@/bench/stats.ts";
import { formatMarkdown } from "@/bench/sdk/report.ts";
import { type ReplayWorld, startReplayWorld } from "@/tests/e2e/replay_world.ts";
import { closeIdleDatabases } from "@/tests/helpers/db.ts";
import {
  earlySeek,
  firstFrame,
  heapMb,
  OUR_PAUSE,
  OUR_PLAY,
  OUR_SEEK,
  ourFrameAt,
  type PageFigures,
  PLAIN_PAUSE,
  PLAIN_PLAY,
  PLAIN_SEEK,
  plainFrameAt,
  playbackLongTasks,
  routePlainPage,
  timeSeeks,
  UNTIL_PARSED,
  watchFirstFrame,
  watchLongTasks,
} from "./pages.ts";
import { recordDocumentation } from "./documentation.ts";
import { hourLongSession } from "./synthetic.ts";
import { replaceSection } from "@/bench/results_section.ts";
import { seekTargets } from "./targets.ts";

const RESULTS = "bench/RESULTS.md";
const BEGIN = "<!-- replay:begin -->";
const END = "<!-- replay:end -->";
interface Controls {
  seek: string;
  play: string;
  pause: string;
}

const OUR_CONTROLS = { seek: OUR_SEEK, play: OUR_PLAY, pause: OUR_PAUSE };
const PLAIN_CONTROLS = { seek: PLAIN_SEEK, play: PLAIN_PLAY, pause: PLAIN_PAUSE };

/** Where the 2× playback stretches start (fractions of the session). */
const PLAYBACK_FROM = [0, 0.4, 0.8];

async function figures(
  page: Page,
  controls: Controls,
  decoded: () => Promise<number>,
  idleWork: () => Promise<number | null>,
) {
  const firstFrameMs = await firstFrame(page);
  const decodedMs = await decoded();
  const idleDoneMs = await idleWork();
  const heap = await heapMb(page);
  const { times, longTasks } = await timeSeeks(page, controls.seek, seekTargets());
  const playback = await playbackLongTasks(page, controls.play, controls.pause, PLAYBACK_FROM);
  const sorted = [...times].sort((a, b) => a - b);
  return {
    firstFrameMs,
    decodedMs,
    idleDoneMs,
    seekP50Ms: percentile(sorted, 50),
    seekMaxMs: sorted.at(-1)!,
    longTasks: longTasks.length,
    longestTaskMs: Math.max(0, ...longTasks),
    playbackLongTasks: playback.length,
    playbackLongestTaskMs: Math.max(0, ...playback),
    heapMb: heap,
  } satisfies PageFigures;
}

const only = Deno.args.find((arg) => arg.startsWith("--only="))?.slice(7).split(",");
const wanted = (name: string) => !only || only.some((part) => name.startsWith(part));

/** One visit of a page, measured only to its first frame. */
async function visit(world: ReplayWorld, path: string): Promise<number> {
  const { page } = await world.page();
  await watchFirstFrame(page);
  await routePlainPage(page, world.url);
  await page.goto(world.url + path, UNTIL_PARSED);
  const ms = await firstFrame(page);
  await page.context().close();
  return ms;
}

/**
 * A server that has served nothing yet compiles its code paths on their first requests: one
 * unmeasured visit of each page first, so the first recording measured is not charged for it.
 */
async function warmUp(world: ReplayWorld) {
  const sessionId = await world.record(await loadRecording("todomvc-react"));
  await visit(world, `/replays/${sessionId}`);
  await visit(world, `/bench/plain.html?session=${sessionId}`);
}

/** Visits besides the measured one whose first frames make the median. */
const EXTRA_VISITS = 2;

/** Measures both pages on each wanted recording; returns the table rows. */
async function measureAll(): Promise<string[]> {
  await using world = await startReplayWorld({ dev: false });
  await warmUp(world);
  const recordings: [string, RrwebEvent[]][] = [];
  for (const name of await listRecordings()) {
    if (wanted(name)) recordings.push([name, await loadRecording(name)]);
  }
  if (wanted("documentation")) recordings.push(["documentation", await recordDocumentation()]);
  if (wanted("synthetic 1 h")) {
    recordings.push(["synthetic 1 h", hourLongSession(await loadRecording("todomvc-react"))]);
  }

  const rows: string[] = [];
  for (const [name, events] of recordings) {
    const jsonMb = JSON.stringify(events).length / 1e6;
    const sessionId = await world.record(events);
    const ours = await world.page();
    await watchLongTasks(ours.page);
    await watchFirstFrame(ours.page);
    await ours.page.goto(`${world.url}/replays/${sessionId}`, UNTIL_PARSED);
    const our = await figures(ours.page, OUR_CONTROLS, () =>
      ours.page.waitForFunction(
        () => document.querySelector(".replay-progress") ? false : performance.now(),
        undefined,
        { polling: "raf", timeout: 300_000 },
      ).then((h) => h.jsonValue() as Promise<number>), () =>
      // Keyframes are built in idle time after loading; seeks are timed once they are.
      ours.page.waitForFunction(
        () => document.querySelector("[data-keyframes=ready]") ? performance.now() : false,
        undefined,
        { polling: 100, timeout: 300_000 },
      ).then((h) => h.jsonValue() as Promise<number>));
    await ours.page.context().close();

    const plainPage = await world.page();
    await watchLongTasks(plainPage.page);
    await watchFirstFrame(plainPage.page);
    await routePlainPage(plainPage.page, world.url);
    await plainPage.page.goto(`${world.url}/bench/plain.html?session=${sessionId}`, UNTIL_PARSED);
    const plain = await figures(
      plainPage.page,
      PLAIN_CONTROLS,
      () =>
        plainPage.page.evaluate(() =>
          (globalThis as unknown as { benchDecoded: number }).benchDecoded
        ),
      () => Promise.resolve(null),
    );
    await plainPage.page.context().close();

    // One visit is at the mercy of a busy host: the first frame is the median of three, the two
    // pages visited in turn.
    const firstFrames = [[our.firstFrameMs], [plain.firstFrameMs]];
    for (let i = 0; i < EXTRA_VISITS; i++) {
      firstFrames[0].push(await visit(world, `/replays/${sessionId}`));
      firstFrames[1].push(await visit(world, `/bench/plain.html?session=${sessionId}`));
    }
    [our.firstFrameMs, plain.firstFrameMs] = firstFrames.map((times) =>
      percentile(times.sort((a, b) => a - b), 50)
    );

    // Opened at the last moment (a copied ?t= link): navigation to that frame drawn, each page
    // visited in turn, median of three; and, on ours opened at the start, the seek bar dragged to
    // the end as soon as the player's frame shows.
    const { started_at } = await world.db.selectFrom("sessions").select("started_at")
      .where("id", "=", sessionId).executeTakeFirstOrThrow();
    const start = started_at.getTime();
    const last = events.at(-1)!.timestamp - start;
    const openAt = [[] as number[], [] as number[]];
    const early: number[] = [];
    const momentFrameStats = world.deps.frames.stats.moment;
    const stats = { ...momentFrameStats };
    for (let i = 0; i < 3; i++) {
      // Ours: the frame at `t` first on screen (the server's, when it drew one); then the player
      // takes over there (waited for, not timed).
      const a = await world.page();
      await watchFirstFrame(a.page);
      await a.page.goto(`${world.url}/replays/${sessionId}?t=${last}`, UNTIL_PARSED);
      openAt[0].push(await firstFrame(a.page));
      await ourFrameAt(a.page, last);
      await a.page.context().close();
      const b = await world.page();
      await routePlainPage(b.page, world.url);
      await b.page.goto(
        `${world.url}/bench/plain.html?session=${sessionId}&t=${last}&start=${start}`,
        UNTIL_PARSED,
      );
      openAt[1].push(await plainFrameAt(b.page));
      await b.page.context().close();
      const c = await world.page();
      await c.page.goto(`${world.url}/replays/${sessionId}`, UNTIL_PARSED);
      early.push(await earlySeek(c.page, last - 1_000));
      await c.page.context().close();
    }
    const median = (xs: number[]) => percentile([...xs].sort((a, b) => a - b), 50);
    const [ourOpen, plainOpen] = openAt.map(median);
    const earlyMax = Math.max(...early);
    // The server's frame at `t` over the three visits: its time per frame drawn, cache hits.
    const views = momentFrameStats.views - stats.views;
    const drawn = momentFrameStats.drawn - stats.drawn;
    const serverFrame = drawn
      ? `${Math.round((momentFrameStats.drawnMs - stats.drawnMs) / drawn)} ms; ` +
        `${momentFrameStats.hits - stats.hits}/${views} cached`
      : `none; ${momentFrameStats.hits - stats.hits}/${views} cached`;

    const ms = (x: number) => Math.round(x).toLocaleString("en");
    for (const [label, f] of [["ours", our], ["plain rrweb", plain]] as const) {
      const mine = label === "ours";
      const opened = mine ? `${ms(ourOpen)} (${(ourOpen / plainOpen).toFixed(2)}×)` : ms(plainOpen);
      rows.push(
        `| ${name} | ${label} | ${ms(f.firstFrameMs)} | ${opened} | ${
          mine ? serverFrame : "—"
        } | ` +
          `${mine ? ms(earlyMax) : "—"} | ${ms(f.decodedMs)} | ` +
          `${f.idleDoneMs === null ? "—" : ms(f.idleDoneMs)} | ${ms(f.seekP50Ms)} | ` +
          `${ms(f.seekMaxMs)} | ${f.longTasks} (max ${ms(f.longestTaskMs)}) | ` +
          `${f.playbackLongTasks} (max ${ms(f.playbackLongestTaskMs)}) | ` +
          `${f.heapMb.toFixed(0)} (${(f.heapMb / jsonMb).toFixed(1)}×) |`,
      );
    }
    console.log(rows.at(-2));
    console.log(rows.at(-1));
  }
  return rows;
}

const rows = await measureAll();
// The world is disposed; the database it kept for reuse would hold the process open.
await closeIdleDatabases();

const load = (await Deno.readTextFile("/proc/loadavg")).split(" ").slice(0, 3).join(", ");
if (only) console.log(`load average ${load}; --only: ${RESULTS} left as it is`);
else await writeResults(rows, load);

async function writeResults(rows: string[], load: string) {
  const section = await formatMarkdown([
    BEGIN,
    "## Replay page",
    "",
    "`deno task bench:replay`: each recording (the corpus, a documentation page of ~7,700 text " +
    "nodes recorded with the SDK while read, `bench/replay/documentation.ts`, and the synthetic " +
    "hour) posted through ingest to a real server (PGlite), then " +
    "opened in headless Chromium on our replay page and on a plain rrweb 2.2.2 `Replayer` page " +
    "(same origin, same events answer, everything decoded on the main thread before the player is " +
    'built). Times in ms from navigation start; "first frame" is when an iframe on screen first ' +
    "shows content (for ours the server-rendered frame: sandboxed with an opaque origin, so the " +
    "page cannot read it, it is asked for its own first contentful paint), watched from the " +
    "page's first moment, " +
    'median of three visits after one unmeasured warm-up visit of each page; "keyframes" is when our page\'s idle-time keyframes ' +
    "cover the whole recording (seeks are timed after it); seeks are 20 fixed pseudo-random targets, each timed " +
    "from the call to the next frame; long tasks (> 50 ms) counted during the seeks, and during " +
    "three 3 s stretches of 2× playback (from 0, 40 % and 80 % of the session); heap = used JS " +
    'heap after a forced GC, MB (and × the recording\'s JSON size). "Open at last moment": ' +
    "navigation to the frame of the session's last event on screen, ours opened with `?t=` (the " +
    "server's frame at `t` when it draws one, else the player's; the ratio is ours / plain), " +
    "plain rrweb fetching everything, building the Replayer and pausing there, median of three " +
    'visits each; "server frame at t": the server\'s time per frame it drew over those three ' +
    'visits, and how many of them its cache answered; "seek to end at first frame": ours opened at the ' +
    "start, the seek bar dragged to its end as soon as the player's own frame shows, until that " +
    "frame is drawn (max of three visits).",
    "",
    `- **Date**: ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC; load average ` +
    `${load} on 2 vCPU at the end of the run; compare the two pages row by row (they share the ` +
    "run, so a busy host moves both).",
    "",
    "| recording | page | first frame | open at last moment | server frame at t (per draw; cached) | seek to end at first frame (max of 3) | all decoded | keyframes | seek p50 | seek max | long tasks in seeks | long tasks in 2× playback | heap MB |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows,
    END,
  ].join("\n"));
  await replaceSection(RESULTS, { begin: BEGIN, end: END }, section);
  console.log(`written to ${RESULTS}`);
}
