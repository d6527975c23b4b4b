// Browser test of panels that tell the truth, on a visit recorded by the served SDK: a History
// "Page" row opens that page; a blocked page shows as paused, not as the page before it frozen; a
// closed tab's session is not Live; a click whose handler throws is an error, not a dead click.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { networkColumns, recordingColumns } from "@/core/projects/recording.ts";
import { DEFAULT_RECORDING } from "@/core/projects/recording_limits.ts";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { waitFor } from "./sdk_harness.ts";
import { sessionMarkers, sessionRow } from "./sdk_readback.ts";
import { frameText, waitLoaded } from "./replay_world.ts";
import { triageWorld } from "./triage_world.ts";

type Ph = { ph: { sessionId: string; flush(): Promise<void> } };

const row = (page: Page, kind: string, text: string) =>
  page.locator(`.history-row[data-kind='${kind}']`, { hasText: text });

/** A 300 px banner pushes the painted page down, and the test waits until Chromium counted the
 * shift: one inserted before the first paint (a loaded host) is no shift at all. */
async function shiftAfterFirstPaint(visit: Page) {
  await visit.evaluate(performanceEntry, "paint");
  await visit.evaluate(() => {
    const banner = Object.assign(document.createElement("div"), { textContent: "Banner" });
    banner.style.height = "300px";
    document.body.prepend(banner);
  });
  await visit.evaluate(performanceEntry, "layout-shift");
}

/** Runs in the page: settles once the browser has an entry of this type (bounded). */
function performanceEntry(type: string) {
  return new Promise<void>((resolve, reject) => {
    setTimeout(() => reject(new Error(`no ${type} entry in 5 s`)), 5_000);
    new PerformanceObserver((_, observer) => (observer.disconnect(), resolve()))
      .observe({ type, buffered: true });
  });
}

Deno.test("replay e2e: History, paused pages, Live and signals say what happened", async (t) => {
  await using w = await triageWorld();
  const db = w.server.t.db.kysely;
  await db.updateTable("projects")
    .set({
      ...recordingColumns({ ...DEFAULT_RECORDING, urlBlock: ["/admin/**"] }),
      ...networkColumns({ enabled: true, vitals: true }),
    })
    .where("id", "=", w.projectId).execute();
  w.page("/home", `<h1>HomeText</h1><a id="go" href="/catalog">Catalog</a>`);
  // The catalog's parsing waits on a script: its first snapshot (at DOMContentLoaded) comes well
  // after the SDK marked the page, as on a real site.
  w.file("/slow.js", "window.slowLoaded = true;", "text/javascript", 400);
  w.page(
    "/catalog",
    `<h1>CatalogText</h1>
<button id="thrower" onclick="addToCart()">Add to cart</button>
<script>function addToCart() { throw new Error("Cart service said no"); }</script>
<script src="/slow.js"></script>`,
  );
  w.page("/admin/secret", `<h1>TopSecretText</h1>`);
  w.page("/checkout", `<h1>CheckoutText</h1>`);

  await using browser = await launchChromium();
  const visit = await browser.newPage();
  // The page's clock flows as time does (the session is live by its times) but the dead-click
  // window passes when the test says so.
  await visit.clock.install();
  await visit.goto(`${w.siteUrl}/home`);
  const externalId = await visit.evaluate(() => (window as unknown as Ph).ph.sessionId);
  await visit.click("#go");
  await visit.waitForFunction(() => (window as unknown as { slowLoaded?: boolean }).slowLoaded);
  await shiftAfterFirstPaint(visit);
  await visit.click("#thrower");
  await visit.clock.runFor(3_500); // past the dead-click window
  await visit.goto(`${w.siteUrl}/admin/secret`);
  await visit.clock.runFor(2_000);
  await visit.goto(`${w.siteUrl}/checkout`);
  await visit.evaluate(() => (window as unknown as Ph).ph.flush());
  await visit.close(); // the tab closes: pagehide
  let seen: unknown[] = [];
  const markers = await waitFor(
    async () => {
      const rows = await sessionMarkers(db, w.projectId, externalId);
      seen = rows;
      return rows.some((m) => m.kind === "page_closed" && Number(m.ts) >= rows.at(-1)!.ts)
        ? rows
        : null;
    },
    10_000,
    "the closed tab's end marker",
  ).catch((e) => {
    throw new Error(`${e.message}; markers: ${JSON.stringify(seen)}`);
  });
  const session = (await sessionRow(db, w.projectId, externalId))!;
  const kinds = markers!.map((m) => m.kind);

  await t.step("a click whose handler throws is an error, not a dead click", () => {
    assert.ok(kinds.includes("error"), kinds.join());
    assert.ok(!kinds.includes("dead_click"), kinds.join());
  });

  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = w.cookie.split("=");
  await context.addCookies([{ name, value, url: w.server.url }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${w.server.url}/replays/${session.id}`);
  await page.locator(".replay-player[data-ready='true']").waitFor();
  await waitLoaded(page);
  const settled = () => page.locator(".replay-player[data-seeking='false']").waitFor();

  await t.step("a closed tab's session, minutes young, is not Live", async () => {
    assert.ok(Date.now() - Number(new Date(session.ended_at!)) < 60_000, "its events are recent");
    assert.equal(await page.locator(".live-badge").count(), 0);
  });

  await t.step("a Page row opens that page at its first frame, not the page before", async () => {
    await row(page, "navigation", "/catalog").click();
    await settled();
    await waitFor(async () => (await frameText(page)).includes("CatalogText"), 5_000, "catalog")
      .catch(async (e) => {
        throw new Error(`${e.message}: the frame shows "${await frameText(page)}"`);
      });
    assert.equal(await row(page, "navigation", "/catalog").getAttribute("aria-current"), "true");
    await row(page, "navigation", "/checkout").click();
    await settled();
    await waitFor(async () => (await frameText(page)).includes("CheckoutText"), 5_000, "checkout");
  });

  await t.step("a blocked page shows recording paused for its span, in History too", async () => {
    const paused = row(page, "paused", "/admin/secret");
    await paused.click();
    await settled();
    const notice = page.locator(".replay-paused");
    await notice.waitFor();
    assert.match(await notice.innerText(), /Recording paused on a blocked page/);
    assert.match(await notice.innerText(), /\/admin\/secret/);
    assert.equal(await paused.getAttribute("aria-current"), "true");
    await page.screenshot({ path: await artifactPath("truth-paused-1280.png") });
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.screenshot({ path: await artifactPath("truth-paused-1440.png") });
    // The page after it: the notice goes.
    await row(page, "navigation", "/checkout").click();
    await settled();
    await notice.waitFor({ state: "detached" });
    assert.ok((await frameText(page)).includes("CheckoutText"));
  });

  await t.step("each page's web vitals show under its History row with their ratings", async () => {
    const vitalsOf = (path: string) =>
      page.locator(".history > li", { has: row(page, "navigation", path) })
        .locator(".history-vitals li");
    await vitalsOf("/catalog").first().waitFor();
    const catalog = await vitalsOf("/catalog").evaluateAll((items) =>
      items.map((li) => [li.getAttribute("data-vital"), li.getAttribute("data-rating")])
    );
    const names = catalog.map(([name]) => name);
    assert.ok(names.includes("lcp") && names.includes("fcp"), JSON.stringify(catalog));
    // the 300 px banner pushed the page down: a shift past the good threshold
    assert.notEqual(catalog.find(([name]) => name === "cls")?.[1] ?? "good", "good");
    assert.match(await vitalsOf("/catalog").first().innerText(), /^LCP \d+ ms/);
    await page.screenshot({ path: await artifactPath("truth-vitals-1440.png") });
  });

  await t.step("History shows the error row and no dead click", async () => {
    await row(page, "error", "Cart service said no").waitFor();
    assert.equal(await page.locator(".history-row[data-kind='dead_click']").count(), 0);
    await page.screenshot({ path: await artifactPath("truth-history-1440.png") });
  });
  assert.deepEqual(errors, []);
  await context.close();
});
