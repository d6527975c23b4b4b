// A seek lands on the exact moment: at real offset t the player shows every event stamped at or
// before session start + t. On every corpus recording, the frame after a seek to each url marker,
// each console error and 20 event timestamps (exactly on them) has the same text and element
// structure as plain rrweb's Replayer paused 1 ms later (rrweb's own pause(t) leaves out the events
// stamped exactly t). A moment between a Meta and its full snapshot (where url markers sit) is shown
// as that snapshot: rrweb records the two as one step and shows neither page inside the gap.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { listRecordings } from "@/bench/corpus_batches.ts";
import { loadRecording, openReplay, type RrwebEvent, startReplayWorld } from "./replay_world.ts";
import { recent } from "@/tests/helpers/times.ts";

const RRWEB_UMD = new URL("../../node_modules/rrweb/dist/rrweb.umd.min.cjs", import.meta.url);

interface Frame {
  text: string;
  /** Element tags of the body in tree order, with depth. */
  shape: string;
}

/** Read inside a page: the frame of a replay iframe (scripts become noscript in both players). */
function readFrame(doc: Document): Frame {
  const body = doc.body;
  const tags: string[] = [];
  const walk = (element: Element, depth: number) => {
    // The option our player gives a masked select (recording/sanitize.ts) is ours alone, by design.
    if (element.hasAttribute("data-playhead-masked")) return;
    tags.push(`${depth}:${element.localName === "script" ? "noscript" : element.localName}`);
    for (const child of element.children) walk(child, depth + 1);
  };
  if (body) walk(body, 0);
  return {
    text: (body?.innerText ?? "").replace(/\s+/g, " ").trim(),
    shape: tags.join(" "),
  };
}

/**
 * Plain rrweb's frames at each offset (from the first event), on a blank page. Taken in time order:
 * rrweb's own backward seek into the span between a Meta and its full snapshot keeps whatever the
 * document showed before (the later page), so only its forward path is a reference.
 */
async function plainFrames(page: Page, events: RrwebEvent[], offsets: number[]): Promise<Frame[]> {
  await page.goto("about:blank");
  await page.addScriptTag({ content: await Deno.readTextFile(RRWEB_UMD) });
  return await page.evaluate(({ events, offsets, read }) => {
    // deno-lint-ignore no-explicit-any
    const rrweb = (globalThis as any).rrweb;
    const readFrame = new Function(`return (${read})`)() as (doc: Document) => Frame;
    const replayer = new rrweb.Replayer(events, {
      root: document.body,
      mouseTail: false,
      showWarning: false,
    });
    const frames = new Map<number, Frame>();
    for (const offset of [...offsets].sort((a, b) => a - b)) {
      replayer.pause(offset);
      frames.set(offset, readFrame(replayer.iframe.contentDocument as Document));
    }
    return offsets.map((offset) => frames.get(offset)!);
  }, { events, offsets, read: readFrame.toString() });
}

/** The timestamp whose frame a seek to `stamp` shows (see the header). */
function shownStamp(events: RrwebEvent[], stamp: number): number {
  const upTo = events.filter((e) => e.timestamp <= stamp);
  const meta = upTo.findLastIndex((e) => e.type === 4);
  if (meta < 0 || upTo.findLastIndex((e) => e.type === 2) > meta) return stamp;
  const snapshot = events.slice(meta).find((e) => e.type === 2);
  return snapshot ? Math.max(snapshot.timestamp, stamp) : stamp;
}

/** Timestamps worth checking: url markers, console errors and 20 events spread over the stream. */
function targets(events: RrwebEvent[]): number[] {
  const picked = new Set<number>();
  for (const event of events) {
    const data = event.data as { tag?: string; plugin?: string; payload?: { level?: string } };
    if (event.type === 5 && data?.tag === "service:url") picked.add(event.timestamp);
    if (event.type === 6 && data?.payload?.level === "error") picked.add(event.timestamp);
  }
  for (let i = 0; i < 20; i++) {
    picked.add(events[Math.floor((i + 0.5) * events.length / 20)].timestamp);
  }
  // Forward and backward: keyframe restores and rrweb's own rebuilds both land exactly.
  const sorted = [...picked].sort((a, b) => a - b);
  const half = Math.ceil(sorted.length / 2);
  return [...sorted.slice(half), ...sorted.slice(0, half)];
}

Deno.test("replay e2e: a seek shows every event stamped at or before its moment, like rrweb 1 ms later", async () => {
  await using world = await startReplayWorld();
  for (const name of await listRecordings()) {
    const events = await loadRecording(name);
    const sessionId = await world.record(events);
    const row = await world.db.selectFrom("sessions").select("started_at")
      .where("id", "=", sessionId).executeTakeFirstOrThrow();
    const sessionStart = row.started_at.getTime();
    const stamps = targets(events);
    const { page, errors } = await world.page();
    await openReplay(page, world.url, sessionId);
    await page.locator(".replay-player[data-keyframes='ready']").waitFor();
    await page.getByRole("switch", { name: "Compress idle" }).uncheck(); // displayed = real
    const seek = page.getByRole("slider", { name: "Seek" });
    const ours: Frame[] = [];
    for (const stamp of stamps) {
      const target = stamp - sessionStart;
      await seek.fill(String(target));
      await page.locator(`.replay-player[data-now='${target}'][data-seeking='false']`).waitFor();
      ours.push(
        await page.locator(".replay-root iframe").evaluate(
          (iframe: HTMLIFrameElement, read) =>
            (new Function(`return (${read})`)() as typeof readFrame)(iframe.contentDocument!),
          readFrame.toString(),
        ),
      );
    }
    const first = events[0].timestamp;
    const plain = await plainFrames(
      page,
      events,
      stamps.map((stamp) => shownStamp(events, stamp) - first + 1),
    );
    for (const [i, stamp] of stamps.entries()) {
      const at = `${name}: seek to ${stamp - sessionStart} ms`;
      assert.equal(ours[i].text, plain[i].text, `${at}: text`);
      assert.equal(ours[i].shape, plain[i].shape, `${at}: structure`);
    }
    assert.deepEqual(errors, [], `${name}: page errors`);
    await page.context().close();
  }
});

Deno.test("replay e2e: a ?t= link draws its moment from the batches since its last snapshot, then loads the rest", async () => {
  await using world = await startReplayWorld();
  const events = await loadRecording("swagger-ui");
  const sessionId = await world.record(events);
  const row = await world.db.selectFrom("sessions").select("started_at")
    .where("id", "=", sessionId).executeTakeFirstOrThrow();
  const sessionStart = row.started_at.getTime();
  // The last url marker, and a moment early in the recording (before that page's snapshot).
  const late = events.findLast((e) => e.type === 5)!.timestamp;
  const early = events[Math.floor(events.length / 5)].timestamp;
  const { page, errors } = await world.page();
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/events")) asked.push(new URL(request.url()).search);
  });
  // The batches before the moment are held back: the moment is drawn without them.
  let release!: () => void;
  const held = new Promise<void>((resolve) => release = resolve);
  await page.route("**/events?before=*", async (route) => {
    await held;
    await route.continue();
  });
  const expected = await plainFrames(
    page,
    events,
    [late, early].map((stamp) => shownStamp(events, stamp) - events[0].timestamp + 1),
  );
  const target = late - sessionStart;
  await openReplay(page, world.url, sessionId, `?t=${target}`);
  const frame = () =>
    page.locator(".replay-root iframe").evaluate(
      (iframe: HTMLIFrameElement, read) =>
        (new Function(`return (${read})`)() as typeof readFrame)(iframe.contentDocument!),
      readFrame.toString(),
    );
  await page.locator(`.replay-player[data-now='${target}'][data-seeking='false']`).waitFor();
  await page.waitForFunction(
    (text) =>
      document.querySelector<HTMLIFrameElement>(".replay-root iframe")?.contentDocument?.body
        ?.innerText.replace(/\s+/g, " ").trim() === text,
    expected[0].text,
  );
  assert.deepEqual(await frame(), expected[0], "the linked moment, before the earlier batches");
  assert.deepEqual(asked, [`?from=${target}`, `?before=${target}`]);
  release();
  await page.locator(".replay-progress").waitFor({ state: "detached" });
  await page.getByRole("switch", { name: "Compress idle" }).uncheck(); // displayed = real
  await page.getByRole("slider", { name: "Seek" }).fill(String(early - sessionStart));
  await page.locator(`.replay-player[data-now='${early - sessionStart}'][data-seeking='false']`)
    .waitFor();
  assert.deepEqual(await frame(), expected[1], "an earlier moment, from the batches loaded after");
  assert.deepEqual(errors, []);
});

Deno.test("replay e2e: a seek past what is decoded loads that moment's batches first, then the ones between", async () => {
  await using world = await startReplayWorld();
  const events = await loadRecording("swagger-ui");
  const sessionId = await world.record(events);
  const row = await world.db.selectFrom("sessions").select("started_at")
    .where("id", "=", sessionId).executeTakeFirstOrThrow();
  const sessionStart = row.started_at.getTime();
  const late = events.findLast((e) => e.type === 5)!.timestamp;
  const { page, errors } = await world.page();
  // A moment in between, decoded after the jump: it is seeked to once everything is in.
  const between = events[Math.floor(events.length * 0.6)].timestamp;
  const [expected, expectedBetween] = await plainFrames(
    page,
    events,
    [late, between].map((stamp) => shownStamp(events, stamp) - events[0].timestamp + 1),
  );
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/events")) asked.push(new URL(request.url()).search);
  });
  // A slow network: the whole recording streams in over seconds, its first batch early.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 20,
    downloadThroughput: 60 * 1024,
    uploadThroughput: 1024 * 1024,
  });
  await openReplay(page, world.url, sessionId);
  await page.getByRole("switch", { name: "Compress idle" }).uncheck(); // displayed = real
  const target = late - sessionStart;
  await page.getByRole("slider", { name: "Seek" }).fill(String(target));
  await page.locator(`.replay-player[data-now='${target}'][data-seeking='false']`).waitFor();
  await page.waitForFunction(
    (text) =>
      document.querySelector<HTMLIFrameElement>(".replay-root iframe")?.contentDocument?.body
        ?.innerText.replace(/\s+/g, " ").trim() === text,
    expected.text,
    { timeout: 60_000 },
  );
  await page.locator(".replay-progress").waitFor({ state: "detached", timeout: 60_000 });
  assert.deepEqual(asked, ["", `?from=${target}`, `?before=${target}`]);
  const frame = await page.locator(".replay-root iframe").evaluate(
    (iframe: HTMLIFrameElement, read) =>
      (new Function(`return (${read})`)() as typeof readFrame)(iframe.contentDocument!),
    readFrame.toString(),
  );
  assert.deepEqual(frame, expected);
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.getByRole("slider", { name: "Seek" }).fill(String(between - sessionStart));
  await page.locator(
    `.replay-player[data-now='${between - sessionStart}'][data-seeking='false']`,
  ).waitFor();
  const frameBetween = await page.locator(".replay-root iframe").evaluate(
    (iframe: HTMLIFrameElement, read) =>
      (new Function(`return (${read})`)() as typeof readFrame)(iframe.contentDocument!),
    readFrame.toString(),
  );
  assert.deepEqual(frameBetween, expectedBetween, "a moment loaded after the jump");
  assert.deepEqual(errors, []);
});

/** When the made-up recordings below start (epoch ms). */
const START = recent(1_790_000_000_000);

/** A serialised element of a made-up page. */
function element(
  id: number,
  tagName: string,
  attributes: Record<string, string> = {},
  childNodes: unknown[] = [],
) {
  return { type: 2, id, tagName, attributes, childNodes };
}

/** A made-up page's Meta at START and its full snapshot 1 ms later. */
function pageLoad(href: string, html: ReturnType<typeof element>): RrwebEvent[] {
  return [
    { type: 4, timestamp: START, data: { href, width: 800, height: 600 } },
    {
      type: 2,
      timestamp: START + 1,
      data: { node: { type: 0, id: 1, childNodes: [html] }, initialOffset: { left: 0, top: 0 } },
    },
  ];
}

/**
 * Records `events`, opens them in the player with keyframes built and displayed time = real;
 * `seek(ms)` goes to `ms` after START and waits until that frame is drawn.
 */
async function openMadeUp(
  world: Awaited<ReturnType<typeof startReplayWorld>>,
  events: RrwebEvent[],
) {
  const sessionId = await world.record(events);
  const row = await world.db.selectFrom("sessions").select("started_at")
    .where("id", "=", sessionId).executeTakeFirstOrThrow();
  const offset = (ms: number) => START + ms - row.started_at.getTime();
  const { page, errors } = await world.page();
  await openReplay(page, world.url, sessionId);
  await page.locator(".replay-player[data-keyframes='ready']").waitFor();
  await page.getByRole("switch", { name: "Compress idle" }).uncheck();
  const seek = async (ms: number) => {
    await page.getByRole("slider", { name: "Seek" }).fill(String(offset(ms)));
    await page.locator(`.replay-player[data-now='${offset(ms)}'][data-seeking='false']`).waitFor();
  };
  const frame = <T>(read: (doc: Document) => T) =>
    page.locator(".replay-root iframe").evaluate(
      (iframe: HTMLIFrameElement, source) =>
        (new Function(`return (${source})`)() as (doc: Document) => T)(iframe.contentDocument!),
      read.toString(),
    );
  return { errors, seek, frame };
}

/**
 * A recording whose style rule inserted at +1,000 ms (not idempotent: a second insert is a second
 * rule) is followed at +1,200 ms by a mouse move whose first position was taken 500 ms before it
 * (rrweb batches moves and stamps the batch).
 */
function moveAfterRule(): RrwebEvent[] {
  const style = element(4, "style", {}, [{ type: 3, id: 5, textContent: "p { margin: 0 }" }]);
  const body = element(6, "body", {}, [element(7, "div")]);
  return [
    ...pageLoad(
      "https://moves.test/",
      element(2, "html", {}, [element(3, "head", {}, [style]), body]),
    ),
    {
      type: 3,
      timestamp: START + 1_000,
      data: { source: 8, id: 4, adds: [{ rule: "div { color: red }", index: 1 }] },
    },
    {
      type: 3,
      timestamp: START + 1_200,
      data: { source: 1, positions: [{ x: 10, y: 10, id: 7, timeOffset: -500 }] },
    },
    {
      type: 3,
      timestamp: START + 3_000,
      data: { source: 1, positions: [{ x: 20, y: 20, id: 7 }] },
    },
  ];
}

Deno.test("replay e2e: a seek forward from a moment whose last event is a mouse move applies nothing twice", async () => {
  await using world = await startReplayWorld();
  const { errors, seek, frame } = await openMadeUp(world, moveAfterRule());
  for (const at of [1_200, 2_000, 2_500]) {
    await seek(at);
    const rules = await frame((doc) =>
      [...doc.head.querySelector("style")!.sheet!.cssRules].map((rule) => rule.cssText)
    );
    assert.deepEqual(rules, ["p { margin: 0px; }", "div { color: red; }"], `at +${at} ms`);
  }
  assert.deepEqual(errors, []);
});

/** Scrolls recorded, in order: [ms after start, node id (1: the page), top]. */
const SCROLLS: [number, number, number][] = [
  [1_000, 1, 1_000],
  [2_000, 6, 300],
  [3_000, 1, 2_500],
  [3_500, 6, 0],
  [4_500, 6, 600],
];

/**
 * A page of fixed sizes (no clamping, nothing loading) with a scrollable box, its scrolls above,
 * and mutations between them (a fast-forward lays out again after each).
 */
function scrolledPage(): RrwebEvent[] {
  const sized = (style: string) => ({ style });
  const box = element(6, "div", sized("height:100px;overflow:auto"), [
    element(7, "div", sized("height:2000px")),
  ]);
  const body = element(4, "body", sized("margin:0"), [
    box,
    element(5, "div", sized("height:8000px")),
  ]);
  const mutation = (at: number, id: number, text: string) => ({
    type: 3,
    timestamp: START + at,
    data: {
      source: 0,
      adds: [{ parentId: 5, nextId: null, node: { type: 3, id, textContent: text } }],
      removes: [],
      texts: [],
      attributes: [],
    },
  });
  const scrolls = SCROLLS.map(([at, id, y]) => ({
    type: 3,
    timestamp: START + at,
    data: { source: 3, id, x: 0, y },
  }));
  return [
    ...pageLoad("https://scrolls.test/", element(2, "html", {}, [element(3, "head"), body])),
    ...scrolls,
    mutation(2_500, 8, "a"),
    mutation(4_000, 9, "b"),
    { type: 3, timestamp: START + 6_000, data: { source: 1, positions: [{ x: 1, y: 1, id: 5 }] } },
  ].sort((a, b) => a.timestamp - b.timestamp);
}

Deno.test("replay e2e: after any seek the page and its boxes stand where they were scrolled at that moment", async () => {
  await using world = await startReplayWorld();
  const { errors, seek, frame } = await openMadeUp(world, scrolledPage());
  // Forward, back to before every scroll (a keyframe put back over a scrolled page), and between.
  for (const at of [3_200, 500, 4_600, 2_100, 3_600, 1_200, 5_500]) {
    await seek(at);
    const last = (id: number) => SCROLLS.findLast(([when, which]) => which === id && when <= at);
    const scrolled = await frame((doc) => [
      doc.scrollingElement!.scrollTop,
      doc.body.firstElementChild!.scrollTop,
    ]);
    assert.deepEqual(scrolled, [last(1)?.[2] ?? 0, last(6)?.[2] ?? 0], `at +${at} ms`);
  }
  assert.deepEqual(errors, []);
});
