// Every corpus recording, posted through ingest, plays to its end on the replay page without page
// errors, and its last frame shows the same text as rrweb's own Replayer given the same events; so
// does the frame after each of several forward and backward seeks (restored from keyframes).
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { listRecordings } from "@/bench/corpus_batches.ts";
import {
  frameText,
  loadRecording,
  openReplay,
  playToEnd,
  type RrwebEvent,
  startReplayWorld,
  waitLoaded,
} from "./replay_world.ts";

const RRWEB_UMD = new URL("../../node_modules/rrweb/dist/rrweb.umd.min.cjs", import.meta.url);

/**
 * The text plain rrweb shows at each offset from the first event (in turn, so backward ones are
 * its own rebuilds), and at the last frame, on a blank page of the same browser.
 */
async function plainRrwebTexts(
  page: Page,
  events: RrwebEvent[],
  offsets: number[],
): Promise<{ at: string[]; last: string }> {
  await page.goto("about:blank");
  await page.addScriptTag({ content: await Deno.readTextFile(RRWEB_UMD) });
  return await page.evaluate(({ events, offsets }) => {
    // deno-lint-ignore no-explicit-any
    const rrweb = (globalThis as any).rrweb;
    const replayer = new rrweb.Replayer(events, {
      root: document.body,
      mouseTail: false,
      showWarning: false,
    });
    const text = (offset: number) => {
      replayer.pause(offset);
      const doc = replayer.iframe.contentDocument as Document;
      return (doc.body.innerText ?? "").replace(/\s+/g, " ").trim();
    };
    const at = offsets.map(text);
    return { at, last: text(replayer.getMetaData().totalTime + 1) };
  }, { events, offsets });
}

/** Forward and backward jumps across the recording, as fractions of its length. */
const JUMPS = [0.8, 0.3, 0.55, 0.1, 0.95, 0.62];

Deno.test("replay e2e: every corpus recording plays to its end like rrweb's own Replayer", async () => {
  await using world = await startReplayWorld();
  for (const name of await listRecordings()) {
    const events = await loadRecording(name);
    const sessionId = await world.record(events);
    const { page, errors } = await world.page();
    await openReplay(page, world.url, sessionId);
    await waitLoaded(page);
    // Seeks restore the keyframes built in idle time once these cover the recording.
    await page.locator(".replay-player[data-keyframes='ready']").waitFor();
    await page.getByRole("switch", { name: "Compress idle" }).uncheck(); // displayed = real
    const seek = page.getByRole("slider", { name: "Seek" });
    const real = events.at(-1)!.timestamp - events[0].timestamp;
    const targets = JUMPS.map((f) => Math.round(real * f));
    const texts: string[] = [];
    for (const target of targets) {
      await seek.fill(String(target));
      await page.locator(`.replay-player[data-now='${target}'][data-seeking='false']`).waitFor();
      texts.push(await frameText(page));
    }
    // Play the last seconds through to the end at 2×.
    const max = Number(await seek.getAttribute("max"));
    await seek.fill(String(Math.max(max - 3_000, 0)));
    await page.getByRole("combobox", { name: "Speed" }).selectOption("2");
    await playToEnd(page);
    assert.equal(await page.getByRole("button", { name: "Play" }).count(), 1, name);
    const ours = await frameText(page);
    const expected = await plainRrwebTexts(page, events, targets);
    assert.ok(expected.last.length > 0, `${name}: rrweb shows text`);
    assert.equal(ours, expected.last, `${name}: last frame text`);
    for (const [i, target] of targets.entries()) {
      assert.equal(texts[i], expected.at[i], `${name}: text after a seek to ${target} ms`);
    }
    assert.deepEqual(errors, [], `${name}: page errors`);
    await page.context().close();
  }
});
