// The first frame the server renders into the replay page: the recording's first full snapshot,
// shown in the player slot before any script runs, fitted exactly where the player draws, and
// replaced by the player's own frame without a change in place or content.
import assert from "node:assert/strict";
import type { Frame, Page } from "playwright-core";
import {
  frameText,
  holdIslands,
  loadRecording,
  meta,
  openReplay,
  playToEnd,
  serverFrame,
  snapshot,
  startReplayWorld,
  waitServerFrame,
} from "./replay_world.ts";

const box = async (page: Page, selector: string) => {
  const rect = await page.locator(selector).evaluate((e) => e.getBoundingClientRect().toJSON());
  const round = (x: number) => Math.round(x * 10) / 10;
  return [rect.x, rect.y, rect.width, rect.height].map(round);
};
const serverText = (frame: Frame) =>
  frame.evaluate(() => (document.body?.innerText ?? "").replace(/\s+/g, " ").trim());

Deno.test("replay e2e: the server's first frame", async (t) => {
  await using world = await startReplayWorld();
  const events = await loadRecording("flot-canvas");
  const sessionId = await world.record(events);

  await t.step(
    "shows the first snapshot before any script, then the player takes over",
    async () => {
      const { page, errors } = await world.page({ width: 1280, height: 900 });
      const release = await holdIslands(page);
      await page.goto(`${world.url}/replays/${sessionId}`, { waitUntil: "commit" });
      const shown = await serverText(await waitServerFrame(page));
      assert.match(shown, /^Interactivity .*One of the goals of Flot/);
      assert.equal(await page.locator(".replay-overlay").count(), 0);
      const serverBox = await box(page, ".replay-server-frame iframe");

      release();
      await page.locator(".replay-player[data-ready='true']").waitFor();
      await page.locator(".replay-server-frame").waitFor({ state: "detached" });
      // The player's frame sits exactly where the server's was, showing the same page.
      assert.deepEqual(await box(page, ".replay-root iframe"), serverBox);
      assert.equal(await frameText(page), shown);
      assert.deepEqual(errors, []);
      await page.context().close();
    },
  );

  await t.step(
    "past 1 MiB of HTML loads from its own address, sandboxed, then the player takes over",
    async () => {
      const start = events[0].timestamp;
      const big = snapshot(start + 1);
      const body = big.data.node.childNodes[0].childNodes[0];
      // 32,000 paragraphs: ~1.3 MB of HTML
      const rows = Array.from({ length: 32_000 }, (_, i) => ({
        type: 2,
        id: 10 + 2 * i,
        tagName: "p",
        attributes: {},
        childNodes: [{ type: 3, id: 11 + 2 * i, textContent: `Paragraph ${i} of a long page.` }],
      }));
      (body.childNodes as unknown[]).push(...rows);
      const text = rows.map((row) => row.childNodes[0].textContent).join(" ");
      const id = await world.record([meta(start), big, meta(start + 500)]);
      const { page, errors } = await world.page();
      const release = await holdIslands(page);
      await page.goto(`${world.url}/replays/${id}`, { waitUntil: "commit" });
      const frame = await waitServerFrame(page);
      assert.equal(await serverFrame(page).getAttribute("src"), `/replays/frame/${id}`);
      assert.equal(await serverText(frame), text);
      // Its own policy sandboxes it: an opaque origin, which can read nothing of the dashboard.
      assert.equal(await frame.evaluate(() => origin), "null");
      release();
      await page.locator(".replay-player[data-ready='true']").waitFor();
      await page.locator(".replay-server-frame").waitFor({ state: "detached" });
      assert.equal(await frameText(page), text);
      assert.deepEqual(errors, []);
      await page.context().close();
    },
  );

  await t.step("is fitted like the player's frame at another window size", async () => {
    const { page } = await world.page({ width: 900, height: 700 });
    const release = await holdIslands(page);
    await page.goto(`${world.url}/replays/${sessionId}`, { waitUntil: "commit" });
    await waitServerFrame(page);
    const serverBox = await box(page, ".replay-server-frame iframe");
    release();
    await page.locator(".replay-server-frame").waitFor({ state: "detached" });
    assert.deepEqual(await box(page, ".replay-root iframe"), serverBox);
    await page.context().close();
  });

  await t.step("an empty first page is handed over too, and what follows plays", async () => {
    const start = events[0].timestamp;
    const empty = [
      meta(start),
      snapshot(start + 1),
      {
        type: 3,
        timestamp: start + 300,
        data: {
          source: 0,
          texts: [],
          attributes: [],
          removes: [],
          adds: [{ parentId: 3, nextId: null, node: { type: 3, id: 4, textContent: "Later" } }],
        },
      },
    ];
    const id = await world.record(empty);
    const { page, errors } = await world.page();
    await openReplay(page, world.url, id);
    await page.locator(".replay-server-frame").waitFor({ state: "detached" });
    await playToEnd(page);
    assert.equal(await frameText(page), "Later");
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  await t.step(
    "gives way to the moment's own frame when opening at a later moment (?t=)",
    async () => {
      const { page } = await world.page();
      const release = await holdIslands(page);
      await page.goto(`${world.url}/replays/${sessionId}?t=20000`, { waitUntil: "commit" });
      const title = await serverFrame(page).getAttribute("title");
      assert.equal(title, "The recording at this moment");
      release();
      await page.context().close();
    },
  );

  await t.step("is left out when the first batches hold no full snapshot", async () => {
    const start = events[0].timestamp;
    const noSnapshot = [
      { type: 4, data: { href: "https://x.test/", width: 800, height: 600 }, timestamp: start },
      { type: 3, data: { source: 1, positions: [] }, timestamp: start + 10 },
    ];
    const id = await world.record(noSnapshot);
    const { page } = await world.page();
    const release = await holdIslands(page);
    await page.goto(`${world.url}/replays/${id}`, { waitUntil: "commit" });
    await page.locator(".replay-slot").waitFor();
    assert.equal(await page.locator(".replay-server-frame").count(), 0);
    assert.equal(await page.locator(".replay-overlay").textContent(), "Loading the recording…");
    release();
    await page.context().close();
  });

  await t.step("carries the first 40 history sections; the player lists every one", async () => {
    const start = events[0].timestamp;
    const pages = Array.from({ length: 60 }, (_, i) => ({
      type: 5,
      timestamp: start + 1_000 * (i + 1),
      data: {
        tag: "service:url",
        payload: { url: `https://x.test/page-${i}`, pathname: `/page-${i}` },
      },
    }));
    const id = await world.record([meta(start), snapshot(start + 1), ...pages]);
    const { page, errors } = await world.page();
    const release = await holdIslands(page);
    await page.goto(`${world.url}/replays/${id}`, { waitUntil: "commit" });
    await page.waitForFunction(() => document.readyState !== "loading"); // the HTML is all parsed
    const sections = page.locator(".history-row:not(.nested)");
    // the session start, then the first 39 of the 60 pages
    assert.equal(await sections.count(), 40);
    release();
    await page.locator(".replay-player[data-ready='true']").waitFor();
    assert.equal(await sections.count(), 61);
    assert.equal(await sections.last().locator(".history-label").textContent(), "/page-59");
    assert.deepEqual(errors, []);
    await page.context().close();
  });
});
