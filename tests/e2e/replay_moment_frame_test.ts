// The frame the server draws at a link's moment (`?t=`, core/sessions/opening_frame.ts): on every
// corpus recording, at 10 moments spread over it, the server's frame (read before any script of the
// page runs) has the same text and element structure as the player's own frame at that moment,
// which takes over at the same moment, in the same place, size and scroll.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { listRecordings } from "@/bench/corpus_batches.ts";
import { MOMENT_LIMITS } from "@/recording/model/moment_frame.ts";
import {
  holdIslands,
  loadRecording,
  type RrwebEvent,
  startReplayWorld,
  waitServerFrame,
} from "./replay_world.ts";

interface Frame {
  text: string;
  /** Element tags of the body in tree order, with depth. */
  shape: string;
  /** The document's scroll offset. */
  scroll: [number, number];
}

/** Read inside a frame's document (the same in both frames). */
function readFrame(doc: Document): Frame {
  const body = doc.body;
  const tags: string[] = [];
  const walk = (element: Element, depth: number) => {
    // Ours alone, by design: a masked select's own option, and the server frame's scroll marks.
    if (element.hasAttribute("data-playhead-masked")) return;
    if (element.hasAttribute("data-playhead-scroll")) return;
    tags.push(`${depth}:${element.localName}`);
    for (const child of element.children) walk(child, depth + 1);
  };
  if (body) walk(body, 0);
  const scroller = doc.scrollingElement;
  return {
    text: (body?.innerText ?? "").replace(/\s+/g, " ").trim(),
    shape: tags.join(" "),
    scroll: [scroller?.scrollLeft ?? 0, scroller?.scrollTop ?? 0],
  };
}

/** 10 moments: the timestamps of events spread over the recording, the last one included. */
function moments(events: RrwebEvent[], sessionStart: number): number[] {
  const picked = new Set<number>();
  for (let i = 1; i <= 10; i++) {
    picked.add(events[Math.floor(i * events.length / 10) - 1].timestamp - sessionStart);
  }
  return [...picked];
}

/** Where a frame sits on the page (and so its recorded size, scaled). */
const box = async (page: Page, selector: string) => {
  const rect = await page.locator(selector).evaluate((e) => e.getBoundingClientRect().toJSON());
  return [rect.x, rect.y, rect.width, rect.height].map((x) => Math.round(x * 10) / 10);
};

async function serverFrameAt(page: Page, url: string): Promise<Frame> {
  await page.goto(url, { waitUntil: "commit" });
  const frame = await waitServerFrame(page);
  return await frame.evaluate(
    (read) => (new Function(`return (${read})`)() as typeof readFrame)(document),
    readFrame.toString(),
  );
}

async function playerFrame(page: Page): Promise<Frame> {
  return await page.locator(".replay-root iframe").evaluate(
    (iframe: HTMLIFrameElement, read) =>
      (new Function(`return (${read})`)() as typeof readFrame)(iframe.contentDocument!),
    readFrame.toString(),
  );
}

Deno.test("replay e2e: the server's frame at a moment matches the player's there", async (t) => {
  // What is compared is the frame, not how long it took: on a busy host editormd's last moments
  // (its whole recording from one snapshot) can pass the wall-time bound, which the player's unit
  // tests hold on a controlled clock. The server runs in this process.
  const maxMs = MOMENT_LIMITS.maxMs;
  MOMENT_LIMITS.maxMs = 60_000;
  try {
    await compareEveryRecording(t);
  } finally {
    MOMENT_LIMITS.maxMs = maxMs;
  }
});

async function compareEveryRecording(t: Deno.TestContext) {
  await using world = await startReplayWorld();
  for (const name of await listRecordings()) {
    await t.step(name, async () => {
      const events = await loadRecording(name);
      const sessionId = await world.record(events);
      const row = await world.db.selectFrom("sessions").select("started_at")
        .where("id", "=", sessionId).executeTakeFirstOrThrow();
      for (const moment of moments(events, row.started_at.getTime())) {
        const { page, errors } = await world.page();
        const release = await holdIslands(page);
        const url = `${world.url}/replays/${sessionId}?t=${moment}`;
        const server = await serverFrameAt(page, url);
        const serverBox = await box(page, ".replay-server-frame iframe");
        release();
        // The player takes over at the same moment: the server's frame goes once its own is drawn.
        await page.locator(`.replay-player[data-ready='true'][data-now='${moment}']`).waitFor();
        await page.locator(".replay-server-frame").waitFor({ state: "detached" });
        const player = await playerFrame(page);
        assert.equal(server.text, player.text, `${name} at ${moment}: text`);
        assert.equal(server.shape, player.shape, `${name} at ${moment}: structure`);
        assert.deepEqual(server.scroll, player.scroll, `${name} at ${moment}: scroll`);
        assert.deepEqual(await box(page, ".replay-root iframe"), serverBox, `${name} at ${moment}`);
        assert.deepEqual(errors, []);
        await page.context().close();
      }
    });
  }
}
