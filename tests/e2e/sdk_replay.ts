// Replays stored events with rrweb's Replayer in the browser and returns the final DOM's text.

import type { Page } from "playwright-core";
import type { Harness } from "./sdk_harness.ts";
import type { StoredEvent } from "./sdk_readback.ts";

const RRWEB_DIST = new URL("../../node_modules/rrweb/dist/", import.meta.url);

/** Serves rrweb's player on the test origin at /replay.html. */
export async function addReplayPage(h: Harness): Promise<void> {
  h.file(
    "/rrweb.js",
    await Deno.readTextFile(new URL("rrweb.umd.min.cjs", RRWEB_DIST)),
    "text/javascript",
  );
  h.file("/rrweb.css", await Deno.readTextFile(new URL("style.css", RRWEB_DIST)), "text/css");
  h.page(
    "/replay.html",
    `<!doctype html><html><head><link rel="stylesheet" href="/rrweb.css">
<script src="/rrweb.js"></script></head><body><div id="root"></div></body></html>`,
  );
}

/** Replays `events` to the end and returns the replayed body's visible text, whitespace-collapsed. */
export async function replayText(h: Harness, page: Page, events: StoredEvent[]): Promise<string> {
  await page.goto(`${h.pagesUrl}/replay.html`);
  return await page.evaluate((events) => {
    // deno-lint-ignore no-explicit-any
    const rrweb = (globalThis as any).rrweb;
    const replayer = new rrweb.Replayer(events, {
      root: document.getElementById("root"),
      mouseTail: false,
      showWarning: false,
    });
    replayer.pause(replayer.getMetaData().totalTime + 1);
    const doc = replayer.iframe.contentDocument as Document;
    return (doc.body.innerText ?? "").replace(/\s+/g, " ").trim();
  }, events);
}

/** The live page's visible text, whitespace-collapsed like `replayText`. */
export function liveText(page: Page): Promise<string> {
  return page.evaluate(() => document.body.innerText.replace(/\s+/g, " ").trim());
}
