// Heatmaps e2e: a shop page of the test's own recorded by the served SDK in Chromium, at the three
// viewport bands, with buttons clicked known times; the background step derives the sessions'
// shares and /api/heatmaps gives exactly those counts per selector and band, the grid puts them
// in the cells of the buttons' centres (measured in the page), a button moved between the page's
// two versions keeps one element row, the rage and dead layers count the scripted rage and dead
// clicks (the SDK's own signals), scroll depth matches the scripted scrolls, `clicked=` lists
// exactly the sessions that clicked, and erasing a user lowers the counts.
//
// 30 visits, 10 per band, as the issue asks: in each band both versions of the page five times, a
// rage burst, a dead click, five scrolled and five unscrolled sessions, all side by side.
import assert from "node:assert/strict";
import type { Browser } from "playwright-core";
import pLimit from "p-limit";
import { deriveHeatmaps } from "@/core/heatmaps/derive.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { launchChromium } from "@/tests/helpers/browser.ts";
import * as esbuild from "esbuild";
import { sdkAssets } from "@/api/service/sdk_assets.ts";
import { buildSdk } from "@/sdk/build/build.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { waitFor } from "./sdk_harness.ts";

const BANDS = {
  narrow: { width: 390, height: 700 },
  medium: { width: 1000, height: 800 },
  wide: { width: 1440, height: 900 },
} as const;
type BandName = keyof typeof BANDS;
const VISITS = 10;
/** Visits open at once (each a browser context). */
const VISITS_AT_ONCE = 6;
const SCROLL_TO = 1000;

/** Version 1 or 2 of the product page: only #buy moves. */
function productPage(version: 1 | 2): string {
  const at = (left: string, top: number) =>
    `position:absolute;left:${left};top:${top}px;width:60px;height:36px`;
  const buy = version === 1 ? at("5%", 80) : at("55%", 420);
  return `
<p id="out"></p>
<button id="buy" style="${buy}" onclick="out.textContent = 'added ' + Date.now()">Buy</button>
<button id="share" style="${at("40%", 200)}" onclick="out.textContent = 'shared'">Share</button>
<button id="rage" style="${at("75%", 120)}" onclick="out.textContent += '!'">Rage</button>
<button id="dead" style="${at("20%", 300)}">Dead</button>
<div style="height:4000px"></div>`;
}

interface Visit {
  band: BandName;
  index: number;
  sessionId: string;
  /** The document's cell of each clicked button's centre (x in % of the page's width). */
  cells: Record<string, string>;
  /** The page's clock when its buttons were clicked (paused: every click of the visit). */
  clickedAt: number;
}

async function visit(
  browser: Browser,
  siteUrl: string,
  band: BandName,
  index: number,
): Promise<Visit> {
  const context = await browser.newContext({ viewport: BANDS[band] });
  const page = await context.newPage();
  await page.clock.install();
  await page.goto(`${siteUrl}/product/${index}`);
  const sessionId = await page.evaluate(() =>
    (window as unknown as { ph: { sessionId: string } }).ph.sessionId
  );
  if (band === "wide" && index === 2) {
    await page.evaluate(() =>
      (window as unknown as { ph: { identify(id: string, t: object): void } }).ph.identify(
        "erase-me",
        {},
      )
    );
  }
  // Each button's centre in the viewport (nothing is scrolled yet), and its document cell.
  const centres: Record<string, { x: number; y: number; cell: string }> = await page.evaluate(
    () =>
      Object.fromEntries(["buy", "share", "rage", "dead"].map((id) => {
        const r = document.getElementById(id)!.getBoundingClientRect();
        const x = r.left + r.width / 2, y = r.top + r.height / 2;
        const cell = `${Math.floor((x / innerWidth) * 100)},${Math.floor((y + scrollY) / 16)}`;
        return [id, { x, y, cell }];
      })),
  );
  const cells = Object.fromEntries(
    Object.entries(centres).map(([id, c]) => [`button#${id}`, c.cell]),
  );
  // The mouse at each centre: no actionability waits, which a paused clock would hold up.
  const press = async (id: string, times = 1) => {
    for (let i = 0; i < times; i++) await page.mouse.click(centres[id].x, centres[id].y);
  };
  // Time stands still but for runFor: the clicks of a visit are one moment. A minute ahead, so
  // the page's clock (which runs until then) is still behind it however loaded the host is.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 60_000));
  const clickedAt = await page.evaluate(() => Date.now());
  await press("buy", 2);
  await press("share");
  if (index === 0) await press("rage", 3);
  await page.clock.runFor(1100); // a burst ends
  if (index === 1) {
    await press("dead");
    await page.clock.runFor(3100); // nothing happened: a dead click
  }
  if (index % 2 === 0) {
    await page.evaluate((y) => scrollTo(0, y), SCROLL_TO);
    await page.clock.runFor(500); // rrweb's scroll sampling
  }
  await page.clock.resume();
  await page.evaluate(() => (window as unknown as { ph: { flush(): Promise<void> } }).ph.flush());
  await context.close();
  return { band, index, sessionId, cells, clickedAt };
}

/**
 * The app on a port serving the built SDK and ingest (no pages: the maps are read from the API),
 * a VIEWER of the shop's organization, and the shop on its own origin.
 */
async function heatmapsWorld() {
  const sdkDir = await Deno.makeTempDir({ prefix: "playhead-sdk-" });
  await buildSdk({ outDir: sdkDir, dev: false });
  await esbuild.stop();
  const t = await createTestApp({}, { mounts: [sdkAssets({ dir: sdkDir })] });
  const app = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, t.app.fetch);
  const appUrl = `http://127.0.0.1:${app.addr.port}`;
  const viewer = await signedInUser(t, { role: "VIEWER" });
  const project = await insertProject(t.db.kysely, {
    organizationId: viewer.organizationId,
    name: "Shop",
  });
  const init = JSON.stringify({ apiKey: project.key, endpoint: appUrl });
  const site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const index = Number(new URL(req.url).pathname.split("/").at(-1));
    return new Response(
      `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<script src="${appUrl}/sdk/v1/playhead.js"></script>
<script>window.ph = Playhead.init(${init});</script></head>
<body>${productPage(index % 2 === 0 ? 1 : 2)}</body></html>`,
      { headers: { "content-type": "text/html; charset=utf-8" } },
    );
  });
  return {
    t,
    viewer,
    projectId: project.id,
    siteUrl: `http://127.0.0.1:${site.addr.port}`,
    [Symbol.asyncDispose]: async () => {
      await site.shutdown();
      await app.shutdown();
      await t[Symbol.asyncDispose]();
      await Deno.remove(sdkDir, { recursive: true });
    },
  };
}
Deno.test("heatmaps e2e: counts per selector and band, cells, a moved button, rage, dead, scroll, clicked=, erasure", async () => {
  await using w = await heatmapsWorld();
  const browser = await launchChromium();
  let visits: Visit[];
  try {
    // Visits side by side, each on its page's own clock, a few at a time: all 30 at once made a
    // page load outlast its 30 s on a busy 2-core host (CI, load 56).
    const atOnce = pLimit(VISITS_AT_ONCE);
    visits = await Promise.all(
      (Object.keys(BANDS) as BandName[]).flatMap((band) =>
        Array.from({ length: VISITS }, (_, i) => atOnce(() => visit(browser, w.siteUrl, band, i)))
      ),
    );
  } finally {
    await browser.close();
  }

  const get = async (path: string) => {
    const res = await call(w.t.app, "GET", path, { cookie: w.viewer.cookie });
    assert.equal(res.status, 200, path);
    return await res.json();
  };
  const q = `projectId=${w.projectId}&path=/product/:id`;
  type Element = {
    selector: string;
    count: number;
    sessions: number;
    rageCount: number;
    deadCount: number;
  };
  const elements = async (band: BandName, kind = "click") =>
    Object.fromEntries(
      (await get(`/api/heatmaps?${q}&viewport=${band}&mode=element&kind=${kind}`)).elements
        .map((e: Element) => [e.selector, [e.count, e.sessions, e.rageCount, e.deadCount]]),
    );
  const expected = {
    "button#buy": [2 * VISITS, VISITS, 0, 0], // twice a visit, at two places (one row)
    "button#share": [VISITS, VISITS, 0, 0],
    "button#rage": [3, 1, 1, 0], // one burst of 3
    "button#dead": [1, 1, 0, 1],
  };
  // The last batches land as the pages close: derive until every band has them (bounded).
  await waitFor(
    async () => {
      await deriveHeatmaps(w.t.deps, new Date(Date.now() + 3_600_000));
      for (const band of Object.keys(BANDS) as BandName[]) {
        if (JSON.stringify(await elements(band)) !== JSON.stringify(expected)) return false;
      }
      return true;
    },
    30_000,
    "every visit's clicks in the maps",
  );

  for (const band of Object.keys(BANDS) as BandName[]) {
    assert.deepEqual(await elements(band), expected, band);
    assert.deepEqual(await elements(band, "rage"), { "button#rage": [1, 1, 1, 0] }, band);
    assert.deepEqual(await elements(band, "dead"), { "button#dead": [1, 1, 0, 1] }, band);

    // The grid: the clicks of each button in the cell of its centre; #buy in two cells.
    const mine = visits.filter((v) => v.band === band);
    const want = new Map<string, number>();
    const add = (cell: string, n: number) => want.set(cell, (want.get(cell) ?? 0) + n);
    for (const v of mine) {
      add(v.cells["button#buy"], 2);
      add(v.cells["button#share"], 1);
      if (v.index === 0) add(v.cells["button#rage"], 3);
      if (v.index === 1) add(v.cells["button#dead"], 1);
    }
    const grid = await get(`/api/heatmaps?${q}&viewport=${band}`);
    assert.equal(grid.totalSessions, VISITS);
    const got = new Map(
      grid.cells.map((c: { x: number; y: number; count: number }) => [`${c.x},${c.y}`, c.count]),
    );
    assert.deepEqual(got, want, band);
    assert.equal(new Set(mine.map((v) => v.cells["button#buy"])).size, 2, "#buy moved");

    // Scroll: half the sessions scrolled to 1000 px, so they saw 1000 + the viewport's height.
    const { height } = BANDS[band];
    const scroll = await get(`/api/heatmaps?${q}&viewport=${band}&kind=scroll`);
    assert.equal(scroll.averageFoldPx, height);
    const reached = (px: number) =>
      scroll.depths.find((d: { depthPx: number }) => d.depthPx === px)?.reachedFraction;
    assert.equal(reached(Math.floor(height / 100) * 100), 1, band);
    assert.equal(reached(Math.ceil((height + 1) / 100) * 100), 0.5, band);
    assert.equal(reached(Math.floor((SCROLL_TO + height) / 100) * 100), 0.5, band);
    assert.equal(scroll.depths.at(-1).depthPx, Math.floor((SCROLL_TO + height) / 100) * 100);
  }

  const pages = await get(`/api/heatmaps/pages?projectId=${w.projectId}`);
  assert.deepEqual(pages.pages, [{
    path: "/product/:id",
    views: 3 * VISITS,
    sessions: 3 * VISITS,
  }]);

  // clicked=: exactly the sessions that clicked the element.
  const listed = async (selector: string) =>
    (await get(`/api/sessions?clicked=${encodeURIComponent(selector)}`)).data
      .map((s: { externalId: string }) => s.externalId).sort();
  assert.deepEqual(
    await listed("button#rage"),
    visits.filter((v) => v.index === 0).map((v) => v.sessionId).sort(),
  );
  assert.deepEqual(
    await listed("button#dead"),
    visits.filter((v) => v.index === 1).map((v) => v.sessionId).sort(),
  );

  // Each session listed by clicked= opens its replay at that click: the paused moment of the visit's
  // clicks, in ms from the session's start.
  const bought = (await get(`/api/sessions?clicked=button%23buy&limit=100`)).data as {
    externalId: string;
    startedAt: string;
    openAtMs: number;
  }[];
  assert.equal(bought.length, 3 * VISITS);
  for (const s of bought) {
    const v = visits.find((v) => v.sessionId === s.externalId)!;
    assert.equal(s.openAtMs, v.clickedAt - Date.parse(s.startedAt), s.externalId);
  }

  // Erasing the identified user takes their session's clicks out of the wide maps.
  const admin = await signedInUser(w.t, { role: "ADMIN", organizationId: w.viewer.organizationId });
  const user = await w.t.db.kysely.selectFrom("tracked_users").select("id")
    .where("external_id", "=", "erase-me").executeTakeFirstOrThrow();
  const erased = await call(w.t.app, "POST", `/api/tracked-users/${user.id}/erase`, {
    cookie: admin.cookie,
  });
  assert.equal(erased.status, 200);
  assert.deepEqual(await elements("wide"), {
    ...expected,
    "button#buy": [2 * (VISITS - 1), VISITS - 1, 0, 0],
    "button#share": [VISITS - 1, VISITS - 1, 0, 0],
  });
  assert.deepEqual(await elements("narrow"), expected);
});
