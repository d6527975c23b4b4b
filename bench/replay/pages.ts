// The two pages measured: our replay page, and a plain rrweb Replayer page on the same origin that
// fetches the same events answer, decodes everything on the main thread, then builds the player.
// Both are measured from navigation start with the same in-page probes.
import type { Frame, Page } from "playwright-core";

export interface PageFigures {
  firstFrameMs: number;
  decodedMs: number;
  /** Our page's idle-time keyframes cover the recording (null: the plain page has none). */
  idleDoneMs: number | null;
  seekP50Ms: number;
  seekMaxMs: number;
  longTasks: number;
  longestTaskMs: number;
  /** Long tasks while playing at 2× (PLAYBACK_MS from each of a few points). */
  playbackLongTasks: number;
  playbackLongestTaskMs: number;
  heapMb: number;
}

const RRWEB_UMD = new URL("../../node_modules/rrweb/dist/rrweb.umd.min.cjs", import.meta.url);

/** Serves the plain page at /bench/plain.html on the app's origin, for this page only. */
export async function routePlainPage(page: Page, origin: string) {
  const rrweb = await Deno.readTextFile(RRWEB_UMD);
  await page.route(
    `${origin}/bench/rrweb.js`,
    (route) => route.fulfill({ body: rrweb, contentType: "text/javascript" }),
  );
  await page.route(
    `${origin}/bench/plain.html*`,
    (route) => route.fulfill({ body: PLAIN_PAGE, contentType: "text/html" }),
  );
}

const PLAIN_PAGE = `<!doctype html><html><head><script src="/bench/rrweb.js"></script></head>
<body><div id="root"></div><script type="module">
const id = new URLSearchParams(location.search).get("session");
const answer = await (await fetch("/api/sessions/" + id + "/events")).json();
const events = [];
for (const batch of answer.batches) {
  const bytes = Uint8Array.fromBase64(batch.data);
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  events.push(...JSON.parse(await new Response(stream).text()));
}
events.sort((a, b) => a.timestamp - b.timestamp);
window.benchDecoded = performance.now();
const replayer = new rrweb.Replayer(events, {
  root: document.getElementById("root"), mouseTail: false, showWarning: false,
});
// Opened at a moment (a real offset, as our ?t=): the frame there, 1 ms later for rrweb's pause.
const at = new URLSearchParams(location.search).get("t");
if (at !== null) {
  replayer.pause(Number(at) + 1 - (events[0].timestamp - Number(new URLSearchParams(location.search).get("start"))));
  requestAnimationFrame(() => { window.benchAt = performance.now(); });
}
window.benchSeek = (fraction) => replayer.pause(replayer.getMetaData().totalTime * fraction);
window.benchPlay = (fraction) => {
  replayer.setConfig({ speed: 2 });
  replayer.play(replayer.getMetaData().totalTime * fraction);
};
window.benchPause = () => replayer.pause();
</script></body></html>`;

/**
 * `goto` returns once the page is parsed: its `load` waits for its frames', and a recorded page
 * drawn as a frame document of its own asks for images and fonts that cannot be fetched here.
 * Every figure is read from the page's own clock, so none depends on when `goto` returns.
 */
export const UNTIL_PARSED = { waitUntil: "domcontentloaded" } as const;

/** Starts counting long tasks from the page's first moment. */
export async function watchLongTasks(page: Page) {
  await page.addInitScript(() => {
    const w = globalThis as unknown as { benchLongTasks: number[] };
    w.benchLongTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.benchLongTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: true });
  });
}

/** When each watched page's frames that it cannot read were first drawn (ms, page clock). */
const drawnFrames = new WeakMap<Page, Promise<number | null>[]>();

/**
 * Watches, from the page's first moment (before `goto` returns), for a frame showing content, two
 * ways, for both pages alike. The page checks at each animation frame for an iframe on screen whose
 * document it can read with content in it (the player's or rrweb's; the content is painted in the
 * frame that follows). A frame it cannot read — the server's, sandboxed with an opaque origin and
 * no script — is followed from here: once its own document is parsed, the page's next animation
 * frame is the one that lays it out and paints it.
 */
export async function watchFirstFrame(page: Page) {
  await page.addInitScript(() => {
    if (self !== top) return; // not in the replayed frames
    const w = globalThis as unknown as { benchFirstFrame?: number };
    const check = () => {
      const shown = [...document.querySelectorAll("iframe")].some((frame) => {
        const body = frame.contentDocument?.body;
        const box = frame.getBoundingClientRect();
        return body && body.childElementCount > 0 && box.width > 0 && box.height > 0 &&
          frame.checkVisibility({ opacityProperty: true, visibilityProperty: true });
      });
      if (shown) w.benchFirstFrame = performance.now();
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  const drawn: Promise<number | null>[] = [];
  drawnFrames.set(page, drawn);
  const followed = new Set<Frame>();
  page.on("framenavigated", (frame) => {
    // rrweb's frames stay at about:blank; a document of its own (srcdoc or src) is navigated to
    if (frame === page.mainFrame() || frame.url() === "about:blank" || followed.has(frame)) return;
    followed.add(frame);
    drawn.push(drawnAfterParsed(page, frame));
  });
}

/** The page's first animation frame after `frame`'s document is parsed, or null if it went away. */
async function drawnAfterParsed(page: Page, frame: Frame): Promise<number | null> {
  try {
    await frame.waitForLoadState("domcontentloaded", { timeout: 120_000 });
    return await page.evaluate(() =>
      new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())))
    );
  } catch {
    return null;
  }
}

/** ms from navigation start to the first frame `watchFirstFrame` saw, either way. */
export async function firstFrame(page: Page): Promise<number> {
  const checked = await page.waitForFunction(
    () => (globalThis as unknown as { benchFirstFrame?: number }).benchFirstFrame ?? false,
    undefined,
    { polling: 50, timeout: 120_000 },
  ).then((h) => h.jsonValue() as Promise<number>);
  const drawn = await Promise.all(drawnFrames.get(page) ?? []);
  return Math.min(checked, ...drawn.filter((at): at is number => at !== null));
}

/**
 * Seeks to each fraction of the session in turn; each seek is timed from the call to the next
 * frame after it (the seek's work is synchronous, so the paint follows it).
 */
export async function timeSeeks(page: Page, seek: string, fractions: number[]) {
  return await page.evaluate(async ({ seek, fractions }) => {
    const w = globalThis as unknown as { benchLongTasks: number[] } & Record<string, unknown>;
    const doSeek = new Function("fraction", seek) as (f: number) => void;
    const before = w.benchLongTasks.length;
    const times: number[] = [];
    for (const fraction of fractions) {
      const t0 = performance.now();
      doSeek(fraction);
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 50));
    }
    return { times, longTasks: w.benchLongTasks.slice(before) };
  }, { seek, fractions });
}

/** How long each playback stretch lasts. */
export const PLAYBACK_MS = 3_000;

/**
 * Plays at 2× for PLAYBACK_MS from each fraction (`play(fraction)` seeks there and starts playing,
 * `pause` stops); returns the long tasks that ran meanwhile.
 */
export async function playbackLongTasks(
  page: Page,
  play: string,
  pause: string,
  fractions: number[],
): Promise<number[]> {
  return await page.evaluate(async ({ play, pause, fractions, ms }) => {
    const w = globalThis as unknown as { benchLongTasks: number[] };
    const doPlay = new Function("fraction", play) as (f: number) => void;
    const doPause = new Function(pause) as () => void;
    const tasks: number[] = [];
    for (const fraction of fractions) {
      // the seek that starts each stretch is timed with the seeks, not here
      doPlay(fraction);
      await new Promise((r) => setTimeout(r, 200));
      const before = w.benchLongTasks.length;
      await new Promise((r) => setTimeout(r, ms));
      tasks.push(...w.benchLongTasks.slice(before));
      doPause();
      await new Promise((r) => setTimeout(r, 100));
    }
    return tasks;
  }, { play, pause, fractions, ms: PLAYBACK_MS });
}

/** Used JS heap after a full garbage collection, in MB (the page and its iframe). */
export async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("HeapProfiler.collectGarbage");
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  await cdp.detach();
  return usedSize / 1e6;
}

/** Our seek bar, driven as a user drags it: its input event with a value in displayed ms. */
export const OUR_SEEK = `const input = document.querySelector("input[aria-label=Seek]");
input.value = String(Math.round(Number(input.max) * fraction));
input.dispatchEvent(new Event("input", { bubbles: true }));`;
export const PLAIN_SEEK = "window.benchSeek(fraction);";

/** Our controls: seek, speed 2×, Play; and Pause. */
export const OUR_PLAY = `${OUR_SEEK}
const speed = document.querySelector("select[aria-label=Speed]");
speed.value = "2";
speed.dispatchEvent(new Event("change", { bubbles: true }));
document.querySelector("button[aria-label=Play]").click();`;
export const OUR_PAUSE = `document.querySelector("button[aria-label=Pause]")?.click();`;
export const PLAIN_PLAY = "window.benchPlay(fraction);";
export const PLAIN_PAUSE = "window.benchPause();";

/** ms from navigation start until our page shows real offset `at`, drawn (polled every frame). */
export function ourFrameAt(page: Page, at: number): Promise<number> {
  return page.waitForFunction(
    (at) => {
      const player = document.querySelector(".replay-player");
      return player?.getAttribute("data-now") === String(at) &&
          player.getAttribute("data-ready") === "true" &&
          player.getAttribute("data-seeking") === "false" &&
          player.getAttribute("data-waiting") === "false"
        ? performance.now()
        : false;
    },
    at,
    { polling: "raf", timeout: 120_000 },
  ).then((h) => h.jsonValue() as Promise<number>);
}

/** ms from navigation start until the plain page has paused at its `t`. */
export function plainFrameAt(page: Page): Promise<number> {
  return page.waitForFunction(
    () => (globalThis as unknown as { benchAt?: number }).benchAt ?? false,
    undefined,
    { polling: 50, timeout: 120_000 },
  ).then((h) => h.jsonValue() as Promise<number>);
}

/**
 * Our page opened at the start: as soon as the player's own frame shows, the seek bar dragged to
 * its end; ms from that seek until the frame at real offset `at` (or later) is drawn.
 */
export async function earlySeek(page: Page, at: number): Promise<number> {
  await page.locator(".replay-player[data-ready='true']").waitFor({ timeout: 120_000 });
  const t0 = await page.evaluate(() => {
    const input = document.querySelector<HTMLInputElement>("input[aria-label=Seek]")!;
    input.value = input.max; // the end of the bar: the session's last moment
    input.dispatchEvent(new Event("input", { bubbles: true }));
    return performance.now();
  });
  const done = await page.waitForFunction(
    (at) => {
      const player = document.querySelector(".replay-player");
      return Number(player?.getAttribute("data-now")) >= at &&
          player!.getAttribute("data-seeking") === "false" &&
          player!.getAttribute("data-waiting") === "false"
        ? performance.now()
        : false;
    },
    at,
    { polling: "raf", timeout: 120_000 },
  ).then((h) => h.jsonValue() as Promise<number>);
  return done - t0;
}
