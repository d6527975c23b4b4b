// Every corpus recording, posted through ingest, plays to its end on the replay page without page
// errors, and its last frame shows the same text as rrweb's own Replayer given the same events.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { listRecordings } from "../../bench/corpus_batches.ts";
import {
  frameText,
  loadRecording,
  openReplay,
  type RrwebEvent,
  startReplayWorld,
  waitLoaded,
} from "./replay_world.ts";

const RRWEB_UMD = new URL("../../node_modules/rrweb/dist/rrweb.umd.min.cjs", import.meta.url);

/** The text of the last frame as plain rrweb draws it, on a blank page of the same browser. */
async function plainRrwebText(page: Page, events: RrwebEvent[]): Promise<string> {
  await page.goto("about:blank");
  await page.addScriptTag({ content: await Deno.readTextFile(RRWEB_UMD) });
  return await page.evaluate((events) => {
    // deno-lint-ignore no-explicit-any
    const rrweb = (globalThis as any).rrweb;
    const replayer = new rrweb.Replayer(events, {
      root: document.body,
      mouseTail: false,
      showWarning: false,
    });
    replayer.pause(replayer.getMetaData().totalTime + 1);
    const doc = replayer.iframe.contentDocument as Document;
    return (doc.body.innerText ?? "").replace(/\s+/g, " ").trim();
  }, events);
}

Deno.test("replay e2e: every corpus recording plays to its end like rrweb's own Replayer", async () => {
  await using world = await startReplayWorld();
  for (const name of await listRecordings()) {
    const events = await loadRecording(name);
    const sessionId = await world.record(events);
    const { page, errors } = await world.page();
    await openReplay(page, world.url, sessionId);
    await waitLoaded(page);
    // Play the last seconds through to the end at 2×.
    const seek = page.getByRole("slider", { name: "Seek" });
    const max = Number(await seek.getAttribute("max"));
    await seek.fill(String(Math.max(max - 3_000, 0)));
    await page.getByRole("combobox", { name: "Speed" }).selectOption("2");
    await page.getByRole("button", { name: "Play" }).click();
    await page.locator(".replay-player[data-ended='true']").waitFor();
    assert.equal(await page.getByRole("button", { name: "Play" }).count(), 1, name);
    const ours = await frameText(page);
    const expected = await plainRrwebText(page, events);
    assert.ok(expected.length > 0, `${name}: rrweb shows text`);
    assert.equal(ours, expected, `${name}: last frame text`);
    assert.deepEqual(errors, [], `${name}: page errors`);
    await page.context().close();
  }
});
