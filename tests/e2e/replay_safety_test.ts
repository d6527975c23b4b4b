// The replay page's defences and edge cases on a real server: a hostile recording runs nothing and
// navigates nowhere; damaged recordings say what they cannot show and play the rest; an open
// session gains batches while watched; another organization's session is 404; visitors sign in.
import assert from "node:assert/strict";
import type { Frame, Locator, Page } from "playwright-core";
import { LIVE_WITHIN_MS } from "@/core/sessions/live.ts";
import { PAGE_CLOSED_TAG } from "@/recording/events.ts";
import { LIVE_POLL_MS } from "@/player/load/session_feed.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";
import { hostileRecording, MARKUP_ARGUMENT, MARKUP_PATH } from "./replay_hostile.ts";
import {
  frameText,
  holdIslands,
  meta,
  openReplay,
  playToEnd,
  type RrwebEvent,
  serverFrame,
  snapshot,
  startReplayWorld,
  waitLoaded,
  waitServerFrame,
} from "./replay_world.ts";
import { recent } from "@/tests/helpers/times.ts";

const START = recent(1_790_000_000_000);
const addText = (t: number, id: number, text: string) => ({
  type: 3,
  timestamp: t,
  data: {
    source: 0,
    texts: [],
    attributes: [],
    removes: [],
    // rrweb adds every node on its own, children after their parent.
    adds: [
      {
        parentId: 3,
        nextId: null,
        node: { type: 2, id, tagName: "p", attributes: {}, childNodes: [] },
      },
      { parentId: id, nextId: null, node: { type: 3, id: id + 1, textContent: text } },
    ],
  },
});
const log = (t: number, text: string) => ({
  type: 6,
  timestamp: t,
  data: {
    plugin: "rrweb/console@1",
    payload: { level: "info", trace: [], payload: [`"${text}"`] },
  },
});
const move = (t: number) => ({
  type: 3,
  timestamp: t,
  data: { source: 1, positions: [{ x: 1, y: 1, id: 3, timeOffset: 0 }] },
});

Deno.test("replay e2e: safety, damaged recordings, live sessions and access", async (t) => {
  await using world = await startReplayWorld();

  await t.step("a hostile recording runs nothing and navigates nowhere", async () => {
    const beacon = `${world.url}/pwned`;
    const sessionId = await world.record(hostileRecording(beacon, START));
    const { page, errors } = await world.page();
    const reached: string[] = [];
    page.context().on("request", (request) => {
      if (request.url().includes("/pwned")) reached.push(request.url());
    });
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      dialog.dismiss();
    });
    // The server's first frame, before any script of the page runs: inert too.
    const release = await holdIslands(page);
    await page.goto(`${world.url}/replays/${sessionId}`, { waitUntil: "commit" });
    const server = await waitServerFrame(page);
    await settled(page, server, `${world.url}/after/server-frame`);
    assert.match(await server.evaluate(bodyText), /^Hostile page a link/);
    const inert = {
      sandbox: ["allow-same-origin"],
      pointerEvents: "none",
      pwned: null,
      handlers: [],
      scriptUrls: [],
      scripts: 0,
      refresh: 0,
      base: 0,
      action: null,
      srcdoc: 0,
    };
    // The server's frame is of an opaque origin too (no allow-same-origin: nothing reads it).
    assert.deepEqual(await inside(serverFrame(page)), { ...inert, sandbox: [] });
    assert.deepEqual(reached, []);
    release();

    await page.locator(".replay-player[data-ready='true']").waitFor();
    await waitLoaded(page);
    await playToEnd(page);
    const player = await (await page.locator(".replay-root iframe").elementHandle())
      ?.contentFrame();
    assert.ok(player, "no player frame");
    await settled(page, player, `${world.url}/after/player-frame`);

    assert.match(await frameText(page), /Hostile page.*Mutated in/);
    assert.deepEqual(reached, []);
    assert.deepEqual(dialogs, []);
    assert.equal(new URL(page.url()).pathname, `/replays/${sessionId}`);
    assert.deepEqual(await inside(page.locator(".replay-root iframe")), inert);
    // Recorded text shown outside the iframe is text, not markup.
    await page.getByRole("tab", { name: /Console/ }).click();
    assert.equal(await page.locator(".console-args").first().textContent(), MARKUP_ARGUMENT);
    assert.equal(await page.locator(".replay-panel img").count(), 0);
    await page.getByRole("tab", { name: "History" }).click();
    assert.ok((await page.locator(".history").textContent())?.includes(MARKUP_PATH));
    assert.equal(await page.locator(".replay-panel script").count(), 0);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  await t.step("a recording without a full snapshot says so and still plays", async () => {
    const events = [meta(START), move(START + 100), log(START + 200, "no page"), move(START + 900)];
    const sessionId = await world.record(events);
    const { page, errors } = await world.page();
    await openReplay(page, world.url, sessionId);
    await waitLoaded(page);
    await page.getByRole("alert").getByText(/no full page snapshot/).waitFor();
    await playToEnd(page);
    await page.getByRole("tab", { name: /Console/ }).click();
    assert.equal(await page.locator(".console-row").count(), 1);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  await t.step("events of an unknown format are left out, named, and the rest plays", async () => {
    const events: RrwebEvent[] = [
      meta(START),
      snapshot(START + 1, "Known page"),
      { type: 9, data: { future: true }, timestamp: START + 50 },
      { type: 3, data: { source: 42 }, timestamp: START + 60 },
      addText(START + 400, 10, "still plays"),
    ];
    const sessionId = await world.record(events);
    const { page, errors } = await world.page();
    await openReplay(page, world.url, sessionId);
    await waitLoaded(page);
    await page.getByRole("alert").getByText(/2 events of a kind this player does not know/)
      .waitFor();
    await playToEnd(page);
    assert.equal(await frameText(page), "Known page still plays");
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  await t.step("a corrupt batch is named and skipped; the batches around it play", async () => {
    const externalId = crypto.randomUUID();
    const sessionId = await world.record([meta(START), snapshot(START + 1, "First")], {
      externalId,
    });
    await world.post(externalId, [addText(START + 2_000, 10, "lost")]);
    await world.post(externalId, [addText(START + 4_000, 20, "third")]);
    const db = world.db;
    const batches = await db.selectFrom("event_batches").select("id")
      .where("session_external_id", "=", externalId).orderBy("first_ts").execute();
    await db.updateTable("event_batches").set({ data: new TextEncoder().encode("not gzip") })
      .where("id", "=", batches[1].id).execute();
    const { page, errors } = await world.page();
    await openReplay(page, world.url, sessionId);
    await waitLoaded(page);
    await page.getByRole("alert").getByText(
      /1 part of the recording \(0:02–0:02\) could not be decoded/,
    )
      .waitFor();
    await playToEnd(page);
    assert.equal(await frameText(page), "First third");
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  await t.step("an open session shows Live and gains new batches while watched", async () => {
    const externalId = crypto.randomUUID();
    const now = Date.now() - 5_000;
    const sessionId = await world.record(
      [meta(now), snapshot(now + 1, "Live page"), log(now + 10, "first"), move(now + 20)],
      { externalId },
    );
    const { page, errors } = await world.page();
    await openReplay(page, world.url, sessionId);
    await waitLoaded(page);
    await page.locator(".live-badge").waitFor();
    assert.match(
      await page.locator(".live-badge").getAttribute("title") ?? "",
      /^Still recording: the latest event is under 2 minutes old, so more may arrive/,
    );
    assert.equal(await page.getByRole("tab", { name: /Console/ }).textContent(), "Console1");
    await world.post(externalId, [
      addText(now + 3_000, 10, "arrived later"),
      log(now + 3_001, "second"),
    ]);
    await page.getByRole("tab", { name: /^Console\s*2$/ }).waitFor();
    await page.getByRole("slider", { name: "Seek" }).fill(
      await page.getByRole("slider", { name: "Seek" }).getAttribute("max") ?? "0",
    );
    await page.waitForFunction(() =>
      document.querySelector<HTMLIFrameElement>(".replay-root iframe")?.contentDocument?.body
        ?.innerText.includes("arrived later")
    );
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  await t.step("an open session whose page closes while watched is Live no more", async () => {
    const externalId = crypto.randomUUID();
    const now = Date.now() - 5_000;
    const sessionId = await world.record(
      [meta(now), snapshot(now + 1, "Live page"), move(now + 20)],
      { externalId },
    );
    const { page, errors } = await world.page();
    await page.clock.install(); // the polls come when the test says
    await openReplay(page, world.url, sessionId);
    await waitLoaded(page);
    await page.locator(".live-badge").waitFor();
    // The SDK's last event as its tab closes (core/sessions/live.ts).
    await world.post(externalId, [
      move(now + 2_000),
      { type: 5, timestamp: now + 2_001, data: { tag: PAGE_CLOSED_TAG, payload: {} } },
    ]);
    const polled = page.waitForResponse((r) => r.url().includes("/events?after="));
    await page.clock.runFor(LIVE_POLL_MS);
    await polled;
    // That one poll ends it, not the two minutes a page that only went quiet gets.
    await page.locator(".live-badge").waitFor({ state: "detached" });
    // Opened again, the page says so at once.
    await openReplay(page, world.url, sessionId);
    await waitLoaded(page);
    assert.equal(await page.locator(".live-badge").count(), 0);
    assert.deepEqual(errors, []);
    await page.context().close();
  });

  await t.step(
    "played to its end, an open session waits live and plays its next batch",
    async () => {
      const externalId = crypto.randomUUID();
      const now = Date.now() - 5_000;
      const sessionId = await world.record(
        [meta(now), snapshot(now + 1, "Live page"), move(now + 20)],
        { externalId },
      );
      const { page, errors } = await world.page();
      await openReplay(page, world.url, sessionId);
      await waitLoaded(page);
      await page.getByRole("button", { name: "Play" }).click();
      await page.locator(".replay-player[data-mode='live']").waitFor();
      assert.equal(await page.getByRole("button", { name: "Pause" }).count(), 1);
      await world.post(externalId, [addText(now + 1_000, 10, "arrived later"), move(now + 1_001)]);
      // No seek and no click: the new batch plays where the recording had ended.
      await page.waitForFunction(() =>
        document.querySelector<HTMLIFrameElement>(".replay-root iframe")?.contentDocument?.body
          ?.innerText.includes("arrived later")
      );
      await page.locator(".replay-player[data-mode='live']").waitFor();
      assert.deepEqual(errors, []);
      await page.context().close();
    },
  );

  await t.step(
    "a session that can no longer grow shows no Live badge and asks for nothing more",
    async () => {
      const then = Date.now() - LIVE_WITHIN_MS - 10_000;
      const sessionId = await world.record([
        meta(then),
        snapshot(then + 1, "Over"),
        move(then + 20),
      ]);
      const { page, errors } = await world.page();
      const asked: string[] = [];
      page.on("request", (request) => {
        if (request.url().includes("/events")) asked.push(request.url());
      });
      await page.clock.install();
      await openReplay(page, world.url, sessionId);
      await waitLoaded(page);
      // Past two polls' time on the page's clock: a poll timer would have fired by now, and its
      // request would come before one the page makes afterwards.
      await page.clock.runFor(2 * LIVE_POLL_MS);
      await pageRequest(page, `${world.url}/after/polls`);
      assert.equal(await page.locator(".live-badge").count(), 0);
      assert.equal(asked.length, 1, `one events request: ${asked.join(", ")}`);
      assert.deepEqual(errors, []);
      await page.context().close();
    },
  );

  await t.step("another organization's session and an unknown id are the 404 page", async () => {
    const other = await insertProject(world.db);
    const foreign = await insertSession(world.db, other);
    const { page } = await world.page();
    for (const id of [foreign.id, "no-such-session"]) {
      const response = await page.goto(`${world.url}/replays/${id}`);
      assert.equal(response?.status(), 404);
      assert.equal(await page.locator("h1").textContent(), "Page not found");
    }
    await page.context().close();
  });

  await t.step("a signed-out visitor is sent to sign in and back", async () => {
    const sessionId = await world.record([meta(START), snapshot(START + 1, "x")]);
    const context = await world.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${world.url}/replays/${sessionId}?t=5`);
    const url = new URL(page.url());
    assert.equal(url.pathname, "/signin");
    assert.equal(url.searchParams.get("next"), `/replays/${sessionId}?t=5`);
    await context.close();
  });
});

/** Makes a request from the page and returns once the browser has sent it. */
async function pageRequest(page: Page, url: string) {
  const asked = page.waitForEvent("request", {
    predicate: (r) => r.url() === url,
    timeout: 10_000,
  });
  await page.evaluate((url) => void fetch(url).catch(() => {}), url);
  await asked;
}

/**
 * Returns once a replay frame's images have loaded or failed and an image it asks for after that
 * has been requested: whatever they could set off (onload, onerror, a refresh due at once) has
 * had its moment, so a check that nothing happened is not made too early.
 */
async function settled(page: Page, frame: Frame, marker: string) {
  const loaded = () => frame.evaluate(() => [...document.images].every((img) => img.complete));
  for (let i = 0; i < 100 && !await loaded(); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(await loaded(), "the replay frame's images never finished loading");
  const asked = page.waitForEvent("request", {
    predicate: (r) => r.url() === marker,
    timeout: 10_000,
  });
  await frame.evaluate((src) => {
    const img = document.createElement("img");
    img.src = src;
    document.body.append(img);
  }, marker);
  await asked;
}

const bodyText = () => (document.body?.innerText ?? "").replace(/\s+/g, " ").trim();

/** What could run code or navigate in a replay iframe: its sandbox, input, and document. */
async function inside(iframe: Locator) {
  const sandbox = (await iframe.getAttribute("sandbox") ?? "").split(/\s+/).filter(Boolean);
  const pointerEvents = await iframe.evaluate((e) => getComputedStyle(e).pointerEvents);
  const pwned = await iframe.evaluate(() => (globalThis as { __pwned?: string }).__pwned ?? null);
  // Read through the test's own handle on the frame: the page cannot read an opaque-origin one.
  const frame = await (await iframe.elementHandle())?.contentFrame();
  if (!frame) throw new Error("no frame document");
  const found = await frame.evaluate(() => {
    const doc = document;
    const all = [...doc.querySelectorAll("*")];
    return {
      handlers: all.flatMap((e) => [...e.attributes].filter((a) => /^on/i.test(a.name)))
        .map((a) => a.name),
      scriptUrls: all.flatMap((e) => [...e.attributes])
        .filter((a) => /javascript:/i.test(a.value)).map((a) => a.name),
      scripts: doc.querySelectorAll("script").length,
      // The server frame's own policy (recording/model/snapshot_html.ts) is the one http-equiv allowed.
      refresh: doc.querySelectorAll('meta[http-equiv]:not([http-equiv="Content-Security-Policy"])')
        .length,
      base: doc.querySelectorAll("base[href]").length,
      action: doc.querySelector("form")?.getAttribute("action") ?? null,
      srcdoc: doc.querySelectorAll("iframe[srcdoc]").length,
    };
  });
  return { sandbox, pointerEvents, pwned, ...found };
}
