// /heatmaps in Chromium: a shop page recorded (synthetic rrweb events of a styled page, ingested
// and derived as the background step does, ./heatmaps_shop.ts) is drawn by the server under the
// heat layer; every kind renders at 1280 and 1440 wide (screenshots in .scratch/e2e/, looked at), the top elements rank
// the clicks, and a row opens /sessions listing exactly the sessions that clicked it.
import assert from "node:assert/strict";
import { deriveHeatmaps } from "@/core/heatmaps/derive.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { artifactPath, launchChromium, signedInPage } from "@/tests/helpers/browser.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { recordShop } from "./heatmaps_shop.ts";

Deno.test("heatmaps page: each kind drawn over the page at 1280 and 1440; a row opens its sessions", async () => {
  await using server = await startPagesServer();
  const db = server.t.db.kysely;
  const viewer = await signedInUser(server.t, { role: "VIEWER" });
  const project = await insertProject(db, { organizationId: viewer.organizationId, name: "Shop" });
  const { couponers } = await recordShop(server.t.app, project.key);
  await deriveHeatmaps(server.t.deps, new Date(Date.now() + 3_600_000));

  const browser = await launchChromium();
  try {
    const { context, page, errors } = await signedInPage(browser, server.url, viewer.cookie);
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      for (
        const [kind, mode] of [["click", "coordinate"], ["click", "element"], [
          "rage",
          "coordinate",
        ], ["scroll", ""]]
      ) {
        const query = `kind=${kind}${mode ? `&mode=${mode}` : ""}`;
        const res = await page.goto(`${server.url}/heatmaps?${query}`);
        assert.equal(res?.status(), 200, query);
        await page.waitForSelector(".heatmap-overlay canvas");
        await page.waitForFunction(() =>
          [...document.querySelectorAll("fresh-island")].every((i) =>
            i.getAttribute("data-hydrated") === "true"
          )
        ).catch(() => {});
        assert.equal(
          await page.locator(".heatmap-page iframe").count(),
          1,
          "the server drew the page",
        );
        await page.screenshot({
          path: await artifactPath(`heatmaps-${kind}-${mode || "depth"}-${width}.png`),
          fullPage: true,
        });
      }
    }
    await page.goto(`${server.url}/heatmaps?kind=click&mode=element`);
    const rows = page.locator('[data-testid="heatmap-elements"] tbody tr');
    // Six clicks each: ties rank by selector.
    assert.deepEqual(await rows.locator("code").allTextContents(), [
      "button#buy",
      "button#coupon",
      "button#share",
    ]);
    await rows.nth(1).locator("a").click();
    await page.waitForURL(/\/sessions\?/);
    assert.match(page.url(), /clicked=button%23coupon/);
    // The list is an island: its rows once hydrated, exactly the two that clicked the coupon.
    const listed = page.getByTestId("sessions-table").locator("tbody tr[data-session]");
    await listed.first().waitFor();
    const ids = await listed.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session")));
    const expected = await db.selectFrom("sessions").select("id")
      .where("external_id", "in", couponers).execute();
    assert.deepEqual(ids.sort(), expected.map((s) => s.id).sort());
    await page.screenshot({ path: await artifactPath("heatmaps-clicked-sessions.png") });

    // A replay's facts link to its page's heatmap.
    await page.goto(`${server.url}/replays/${expected[0].id}`);
    const link = page.locator(".session-facts a", { hasText: "/products/:id" });
    await page.screenshot({ path: await artifactPath("heatmaps-replay-link.png") });
    await link.click();
    await page.waitForURL(/\/heatmaps\?/);
    assert.equal(new URL(page.url()).searchParams.get("path"), "/products/:id");
    assert.equal(new URL(page.url()).searchParams.get("projectId"), project.id);
    await page.waitForSelector(".heatmap-overlay canvas");
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await browser.close();
  }
});
