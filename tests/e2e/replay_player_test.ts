// The player's controls on swagger-ui (one 43.6 s idle gap, seven navigations, six console calls,
// a resize to 1024×700 at the end), posted through ingest: idle compression and skipping, speeds,
// ±5 s of real time, ?t= and the copied link, the History and Console panels, and the viewport
// scale.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  clockMs,
  frameText,
  loadRecording,
  openReplay,
  type ReplayPage,
  seekValue,
  startReplayWorld,
  waitLoaded,
} from "./replay_world.ts";

const GAP = { start: 36_151, length: 43_637 }; // corpus README: max gap 43.6 s
const now = async (page: Page) =>
  Number(await page.locator(".replay-player").getAttribute("data-now"));
const seekTo = (page: Page, display: number) =>
  page.getByRole("slider", { name: "Seek" }).fill(String(display));
/** Waits for the seek bar to span `max` (a toggle re-renders the player after its click). */
const seekSpans = (page: Page, max: number) =>
  page.locator(`input[aria-label=Seek][max='${max}']`).waitFor();
const isPaused = async (page: Page) =>
  await page.getByRole("button", { name: "Play" }).count() === 1;

/** Waits until the player shows real offset `at` with no seek left to draw. */
const settledAt = (page: Page, at: number) =>
  page.locator(`.replay-player[data-now='${at}'][data-seeking='false']`).waitFor();

/** Real offsets the page shows while playing, sampled every frame until `until` is reached. */
function samplesUntil(page: Page, until: number): Promise<number[]> {
  return page.evaluate((until) =>
    new Promise<number[]>((resolve) => {
      const player = document.querySelector(".replay-player")!;
      const seen: number[] = [];
      const sample = () => {
        const value = Number(player.getAttribute("data-now"));
        seen.push(value);
        if (value >= until) resolve(seen);
        else requestAnimationFrame(sample);
      };
      sample();
    }), until);
}

Deno.test("replay e2e: the player's controls and panels on swagger-ui", async (t) => {
  await using world = await startReplayWorld();
  const events = await loadRecording("swagger-ui");
  const start = events[0].timestamp;
  const real = events.at(-1)!.timestamp - start;
  const sessionId = await world.record(events);
  const open = async (query = "", size?: { width: number; height: number }) => {
    const opened: ReplayPage = await world.page(size);
    await openReplay(opened.page, world.url, sessionId, query);
    await waitLoaded(opened.page);
    return opened;
  };
  const { page, errors } = await open();

  await t.step(
    "compress idle shows the 43.6 s gap as 5 s of the bar; the clock and history keep real time",
    async () => {
      assert.equal((await seekValue(page)).max, real - (GAP.length - 5_000));
      assert.equal((await clockMs(page)).total, Math.floor(real / 1000) * 1000);
      assert.equal(await page.getByRole("img", { name: "Idle 44 s skipped" }).count(), 1);
      const idle = page.locator(".history-row[data-kind='idle']");
      assert.equal(await idle.count(), 1);
      assert.match(await idle.textContent() ?? "", /Idle 44 s.*44 s/);
      assert.equal(Number(await idle.getAttribute("data-start")), GAP.start);

      await page.getByRole("switch", { name: "Compress idle" }).uncheck();
      await seekSpans(page, real);
      assert.match(await idle.textContent() ?? "", /Idle 44 s.*44 s/);
      await page.getByRole("switch", { name: "Compress idle" }).check();
      await seekSpans(page, real - GAP.length + 5_000);
    },
  );

  await t.step(
    "the seek bar has a tick per marker with its tooltip; hovering shows the time under the pointer",
    async () => {
      const markers = await world.db.selectFrom("markers").select(["kind"])
        .where("session_id", "=", sessionId).execute();
      const ticks = page.locator(".seek-tick");
      assert.equal(await ticks.count(), markers.length);
      const kinds = await ticks.evaluateAll((all) => all.map((t) => t.getAttribute("data-kind")));
      assert.deepEqual(new Set(kinds), new Set(markers.map((m) => m.kind)));
      assert.ok(kinds.includes("url") && kinds.includes("error"), "page changes and errors");
      // Hover the last page change: its label and the time under the pointer.
      const last = ticks.and(page.locator("[data-kind='url']")).last();
      const title = await last.getAttribute("title");
      assert.match(title ?? "", /^Page: \//);
      const box = (await last.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const hover = page.getByTestId("seek-hover");
      assert.match(await hover.textContent() ?? "", /^\d+:\d\d/);
      assert.ok((await hover.textContent())!.includes(title!), "the tick's label on hover");
      await page.mouse.move(0, 0);
      await hover.waitFor({ state: "detached" });
    },
  );

  await t.step("?t= opens at a real offset, at its place on the compressed bar", async () => {
    const inGap = GAP.start + GAP.length / 2;
    const other = await open(`?t=${Math.round(inGap)}`);
    assert.equal(await now(other.page), Math.round(inGap));
    assert.equal((await seekValue(other.page)).value, Math.round(GAP.start + 2_500));
    await other.page.context().close();
  });

  await t.step("±5 s move 5 s of real time and stop at both ends", async () => {
    await page.getByRole("button", { name: "Back 5 seconds" }).click();
    assert.equal(await now(page), 0);
    await seekTo(page, 10_000);
    await page.getByRole("button", { name: "Forward 5 seconds" }).click();
    assert.equal((await seekValue(page)).value, 15_000);
    await page.getByRole("button", { name: "Back 5 seconds" }).click();
    assert.equal((await seekValue(page)).value, 10_000);
    // Forward into the gap moves 5 s of real time, 4 s into the idle stretch.
    await seekTo(page, GAP.start - 1_000);
    await page.getByRole("button", { name: "Forward 5 seconds" }).click();
    assert.equal(await now(page), GAP.start + 4_000);
    const { max } = await seekValue(page);
    await seekTo(page, max - 2_000);
    await page.getByRole("button", { name: "Forward 5 seconds" }).click();
    assert.equal(await now(page), real);
    assert.ok(await isPaused(page));
  });

  await t.step("copy link at this moment writes ?t= with the real offset", async () => {
    await seekTo(page, 50_000);
    const at = await now(page);
    await page.getByRole("button", { name: "Copy link at this moment" }).click();
    await page.getByText("Copied to the clipboard.").waitFor();
    const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
    assert.equal(link.pathname, `/replays/${sessionId}`);
    assert.equal(Number(link.searchParams.get("t")), at);
    const other = await open(link.search);
    assert.equal(await now(other.page), at);
    await other.page.context().close();
  });

  await t.step(
    "skip idle jumps over the gap while playing; without it the gap plays in 5 s",
    async () => {
      await page.getByRole("combobox", { name: "Speed" }).selectOption("2");
      await seekTo(page, GAP.start - 500);
      await page.getByRole("button", { name: "Play" }).click();
      const skipped = await samplesUntil(page, GAP.start + GAP.length);
      await page.getByRole("button", { name: "Pause" }).click();
      const inside = (s: number) => s > GAP.start + 300 && s < GAP.start + GAP.length - 300;
      assert.equal(skipped.filter(inside).length, 0, "no moment inside the gap is shown");

      await page.getByRole("switch", { name: "Skip idle" }).uncheck();
      await seekTo(page, GAP.start - 500);
      await page.getByRole("button", { name: "Play" }).click();
      const compressed = await samplesUntil(page, GAP.start + GAP.length);
      await page.getByRole("button", { name: "Pause" }).click();
      assert.ok(compressed.filter(inside).length > 10, "the gap is played through");
      await page.getByRole("switch", { name: "Skip idle" }).check();
    },
  );

  await t.step("each speed plays the recording at that rate", async () => {
    for (const speed of ["0.5", "1", "2"]) {
      await page.getByRole("combobox", { name: "Speed" }).selectOption(speed);
      await seekTo(page, 1_000);
      await page.getByRole("button", { name: "Play" }).click();
      const rate = await page.evaluate(() =>
        new Promise<number>((resolve) => {
          const player = document.querySelector(".replay-player")!;
          const read = () => Number(player.getAttribute("data-now"));
          const [from, t0] = [read(), performance.now()];
          setTimeout(() => resolve((read() - from) / (performance.now() - t0)), 1_500);
        })
      );
      await page.getByRole("button", { name: "Pause" }).click();
      assert.ok(Math.abs(rate / Number(speed) - 1) < 0.3, `speed ${speed}: rate ${rate}`);
    }
    await page.getByRole("combobox", { name: "Speed" }).selectOption("1");
  });

  await t.step("history sections chain, with exactly one active row at any time", async () => {
    const rows = page.locator(".history-row");
    const sections = page.locator(".history-row:not(.nested)");
    const starts = await sections.evaluateAll((els) => els.map((e) => Number(e.dataset.start)));
    assert.equal(starts.length, 7, "init and six navigations");
    assert.deepEqual(starts, [...starts].sort((a, b) => a - b));
    const { max } = await seekValue(page);
    for (let display = 0; display <= max; display += Math.floor(max / 23)) {
      await seekTo(page, display);
      const at = await now(page);
      const active = page.locator(".history-row[aria-current='true']");
      assert.equal(await active.count(), 1, `at ${at}`);
      const kind = await active.getAttribute("data-kind");
      const activeStart = Number(await active.getAttribute("data-start"));
      if (kind === "idle") assert.ok(at >= GAP.start && at < GAP.start + GAP.length);
      else {
        const next = starts.find((s) => s > activeStart) ?? Infinity;
        assert.ok(activeStart <= at && at < next, `${at} in [${activeStart}, ${next})`);
      }
    }
    assert.ok(await rows.count() > 7);
  });

  await t.step("a history row seeks to its start and keeps play or pause", async () => {
    await seekTo(page, 0);
    const idle = page.locator(".history-row[data-kind='idle']");
    await idle.click();
    assert.equal(await now(page), GAP.start);
    assert.ok(await isPaused(page));
    await page.getByRole("button", { name: "Play" }).click();
    const third = page.locator(".history-row:not(.nested)").nth(2);
    const target = Number(await third.getAttribute("data-start"));
    await third.click();
    assert.equal(await page.getByRole("button", { name: "Pause" }).count(), 1);
    await page.getByRole("button", { name: "Pause" }).click();
    const at = await now(page);
    assert.ok(at >= target && at < target + 5_000, `${at} after ${target}`);
  });

  await t.step("console rows show level, arguments and time from the session start", async () => {
    await page.getByRole("tab", { name: /Console/ }).click();
    const logs = events.filter((e) => e.type === 6);
    const rows = page.locator(".console-row");
    assert.equal(await rows.count(), logs.length);
    const levels = await rows.evaluateAll((els) => els.map((e) => e.dataset.level));
    assert.deepEqual(
      levels,
      logs.map((e) => (e.data as { payload: { level: string } }).payload.level),
    );
    const clock = (ms: number) =>
      `${Math.floor(ms / 60_000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, "0")}`;
    const times = await page.locator(".console-time").allTextContents();
    assert.deepEqual(times, logs.map((e) => clock(e.timestamp - start)));
    assert.match(await rows.nth(2).textContent() ?? "", /deprecated option "legacyMode" used/);
    // The level filter hides a level; the counts stay.
    const errorChip = page.getByRole("group", { name: "Levels" })
      .getByRole("button", { name: /^error/ });
    assert.match(await errorChip.textContent() ?? "", /2/);
    await errorChip.click();
    assert.equal(await page.locator(".console-row[data-level='error']").count(), 0);
    await errorChip.click();
    // A click seeks to the entry, which becomes the current one.
    await rows.nth(3).click();
    assert.equal(await now(page), logs[3].timestamp - start);
    assert.equal(await page.locator(".console-row[aria-current='true']").count(), 1);
    assert.equal(await rows.nth(3).getAttribute("aria-current"), "true");
    assert.ok(await isPaused(page));
  });

  await t.step("scrubbing through many positions ends on the last one's frame", async () => {
    const target = 12_345; // before the gap: displayed = real
    await seekTo(page, target);
    await settledAt(page, target);
    const expected = await frameText(page);
    await seekTo(page, 0);
    await settledAt(page, 0);
    const { max } = await seekValue(page);
    // A drag: bursts of input events, several per frame, over other pages of the recording.
    await page.evaluate(async ({ max, target }) => {
      const input = document.querySelector<HTMLInputElement>("input[aria-label=Seek]")!;
      const positions = Array.from(
        { length: 60 },
        (_, i) => Math.round(max * ((i * 37) % 60) / 60),
      );
      for (const [i, value] of [...positions, target].entries()) {
        input.value = String(value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
        if (i % 4 === 3) await new Promise(requestAnimationFrame);
      }
    }, { max, target });
    await settledAt(page, target);
    assert.equal((await seekValue(page)).value, target);
    assert.equal(await frameText(page), expected);
    assert.ok(await isPaused(page));
  });

  await t.step(
    "the recording is scaled by min(width, height) ratios and centred, at two sizes",
    async () => {
      const check = async (p: Page, recorded: { width: number; height: number }) => {
        const slot = (await p.locator(".replay-slot").boundingBox())!;
        const frame = (await p.locator(".replay-root iframe").boundingBox())!;
        const scale = Math.min(slot.width / recorded.width, slot.height / recorded.height);
        assert.ok(Math.abs(slot.width / slot.height - 16 / 9) < 0.01, "16:9 slot");
        assert.ok(Math.abs(frame.width - recorded.width * scale) < 1.5, "scaled width");
        assert.ok(Math.abs(frame.height - recorded.height * scale) < 1.5, "scaled height");
        const [left, right] = [frame.x - slot.x, slot.x + slot.width - frame.x - frame.width];
        const [top, bottom] = [frame.y - slot.y, slot.y + slot.height - frame.y - frame.height];
        assert.ok(Math.abs(left - right) < 1.5 && Math.abs(top - bottom) < 1.5, "centred");
        return scale;
      };
      await seekTo(page, 1_000);
      const wide = await check(page, { width: 1280, height: 800 });
      await page.setViewportSize({ width: 1000, height: 800 });
      await page.waitForFunction(() => {
        const slot = document.querySelector(".replay-slot")!.getBoundingClientRect();
        const frame = document.querySelector(".replay-root iframe")!.getBoundingClientRect();
        return frame.width <= slot.width + 1;
      });
      const narrow = await check(page, { width: 1280, height: 800 });
      assert.ok(narrow < wide, "a smaller window scales down at once");
      // The recording ends resized to 1024×700.
      await seekTo(page, (await seekValue(page)).max);
      await page.waitForFunction(() =>
        document.querySelector(".replay-root iframe")?.getAttribute("width") === "1024"
      );
      await check(page, { width: 1024, height: 700 });
    },
  );

  await t.step(
    "the recorded cursor is where the pointer was after a seek back and on a link",
    async () => {
      /** The last recorded pointer position at or before real offset `at`. */
      const pointerAt = (at: number) => {
        let found: { x: number; y: number } | null = null;
        for (const e of events) {
          if (e.timestamp - start > at) break;
          const d = e.data as { source?: number; positions?: { x: number; y: number }[] } & {
            x?: number;
            y?: number;
          };
          if (e.type !== 3) continue;
          if ((d.source === 1 || d.source === 6) && d.positions?.length) {
            found = d.positions.at(
              -1,
            )!;
          }
          if (d.source === 2 && d.x !== undefined && d.y !== undefined) found = { x: d.x, y: d.y! };
        }
        return found;
      };
      const cursor = async (p: Page) =>
        await p.locator(".replay-root .replayer-mouse").evaluate((m: HTMLElement) => [
          parseFloat(m.style.left),
          parseFloat(m.style.top),
        ]);
      await page.getByRole("switch", { name: "Compress idle" }).uncheck();
      await seekSpans(page, real);
      await seekTo(page, real);
      await settledAt(page, real);
      await page.getByRole("button", { name: "Back 5 seconds" }).click();
      await settledAt(page, real - 5_000);
      const back = pointerAt(real - 5_000)!;
      assert.deepEqual(await cursor(page), [back.x, back.y], "after −5 s");
      await page.getByRole("switch", { name: "Compress idle" }).check();
      await seekSpans(page, real - GAP.length + 5_000);
      const at = Math.round(real * 0.9);
      const linked = await open(`?t=${at}`);
      await settledAt(linked.page, at);
      const there = pointerAt(at)!;
      assert.deepEqual(await cursor(linked.page), [there.x, there.y], "opened at a link");
      await linked.page.context().close();
    },
  );

  assert.deepEqual(errors, []);
});
