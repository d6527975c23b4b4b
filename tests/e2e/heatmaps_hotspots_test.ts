// /heatmaps' hotspots in Chromium (./heatmaps_shop.ts's page): in element mode each element is
// boxed where the page's frame lays it out (the overlay's measurement equals the shown frame's own
// layout, at 1280 and 1440 wide, and in a frame past 1 MiB served from its own address), and one
// that is in no frame (added after the snapshot) where its clicks fell; a grid cell shows its count
// on hover and, clicked, opens /sessions listing exactly the sessions that clicked in it, each row
// opening its replay at that click.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { deriveHeatmaps } from "@/core/heatmaps/derive.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { artifactPath, launchChromium, signedInPage } from "@/tests/helpers/browser.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { recordShop } from "./heatmaps_shop.ts";

/** The overlay's boxes once measured: selector → [x, y, w, h] in the page's px, rounded. */
async function laidOut(page: Page) {
  const canvas = page.locator('.heatmap-overlay canvas[data-boxes="layout"]');
  await canvas.waitFor();
  return JSON.parse(await canvas.getAttribute("data-laid-out") ?? "{}");
}

/** The shown frame's own layout of `selectors` (the test may read the opaque frame). */
async function shownLayout(page: Page, selectors: string[]) {
  const frame = await (await page.locator(".heatmap-page iframe").elementHandle())?.contentFrame();
  assert.ok(frame, "the server drew the page");
  return await frame.evaluate((list) =>
    Object.fromEntries(list.map((s) => {
      const r = document.querySelector(s)!.getBoundingClientRect();
      return [s, [r.left, r.top, r.width, r.height].map(Math.round)];
    })), selectors);
}

Deno.test("heatmaps hotspots: elements boxed by their layout (else their clicks); a cell opens the sessions that clicked in it", async () => {
  await using server = await startPagesServer();
  const db = server.t.db.kysely;
  const viewer = await signedInUser(server.t, { role: "VIEWER" });
  const project = await insertProject(db, { organizationId: viewer.organizationId, name: "Shop" });
  await recordShop(server.t.app, project.key, { popup: true });
  await deriveHeatmaps(server.t.deps, new Date(Date.now() + 3_600_000));
  const buttons = ["button#buy", "button#coupon", "button#share"];

  const browser = await launchChromium();
  try {
    const { context, page, errors } = await signedInPage(browser, server.url, viewer.cookie);
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/heatmaps?projectId=${project.id}&kind=click&mode=element`);
      const boxes = await laidOut(page);
      // The three buttons where the frame lays them out; the Claim button is in no frame.
      assert.deepEqual(Object.keys(boxes).sort(), buttons);
      assert.deepEqual(boxes, await shownLayout(page, buttons));
      const rows = page.locator('[data-testid="heatmap-elements"] tbody tr code');
      assert.ok((await rows.allTextContents()).includes("button#claim"));
      await page.screenshot({
        path: await artifactPath(`heatmaps-element-laid-out-${width}.png`),
        fullPage: true,
      });
    }

    // A page past 1 MiB: its frame is served from its own address, which the overlay reads.
    const big = await insertProject(db, { organizationId: viewer.organizationId, name: "Big" });
    await recordShop(server.t.app, big.key, { paddingChars: 1_200_000 });
    await deriveHeatmaps(server.t.deps, new Date(Date.now() + 3_600_000));
    await page.goto(`${server.url}/heatmaps?projectId=${big.id}&kind=click&mode=element`);
    assert.match(
      await page.locator(".heatmap-page iframe").getAttribute("src") ?? "",
      /^\/replays\/frame\//,
    );
    const bigBoxes = await laidOut(page);
    assert.deepEqual(Object.keys(bigBoxes).sort(), buttons);
    assert.deepEqual(bigBoxes, await shownLayout(page, buttons));

    // The grid: Add to cart's cell, hovered then clicked.
    await page.goto(`${server.url}/heatmaps?projectId=${project.id}&kind=click&mode=coordinate`);
    await page.waitForFunction(() =>
      [...document.querySelectorAll("fresh-island")].every((i) =>
        i.getAttribute("data-hydrated") === "true"
      )
    ).catch(() => {});
    const canvas = page.locator(".heatmap-overlay canvas");
    const box = (await canvas.boundingBox())!;
    const scale = box.width / 1440;
    const at = { x: 803 * scale, y: 240 * scale }; // the clicks' x 800–805, y 240
    await canvas.hover({ position: at });
    await page.locator(".heatmap-tip", { hasText: "6 clicks · open their sessions" }).waitFor();
    await page.screenshot({ path: await artifactPath("heatmaps-cell-hover.png") });
    await canvas.click({ position: at });
    await page.waitForURL(/\/sessions\?/);
    const url = new URL(page.url());
    assert.deepEqual(url.searchParams.getAll("projectIds"), [project.id]);
    assert.equal(url.searchParams.get("clickedCell"), "wide:55:15:/products/:id");
    const listed = page.getByTestId("sessions-table").locator("tbody tr[data-session]");
    await listed.first().waitFor();
    const shown = await listed.evaluateAll((trs) =>
      trs.map((
        tr,
      ) => [tr.getAttribute("data-session"), tr.querySelector("a.row-link")?.getAttribute("href")])
    );
    // Exactly the six that clicked Add to cart (not the Claim visit), each opening at that click.
    const six = await db.selectFrom("sessions").select("id").where("project_id", "=", project.id)
      .where("id", "in", shown.map(([id]) => id!)).execute();
    assert.equal(shown.length, 6);
    assert.equal(six.length, 6);
    for (const [id, href] of shown) assert.equal(href, `/replays/${id}?t=100`);
    await page.screenshot({ path: await artifactPath("heatmaps-cell-sessions.png") });
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});
