// Browser test of frustration signals: a real page recorded by the served SDK. Rage clicks, dead
// clicks and errors reach the service as markers and session counts under the privacy rules; the
// session is then found by each of the sessions list's filters, shows its badges, and /insights
// lists it: every Errors column at 1280 and 1440, a group's whole message and stack, today by the
// hour.

import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import type { Page } from "playwright-core";
import { sdkAssets } from "@/api/service/sdk_assets.ts";
import { buildSdk } from "@/sdk/build/build.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { waitFor } from "./sdk_harness.ts";
import { storedBatches } from "./sdk_readback.ts";

const PAGE = `
<button id="nothing" class="btn primary">Does nothing</button>
<button id="changes" onclick="document.getElementById('out').textContent = 'changed'">Changes</button>
<p id="out"></p>
<div data-service-mask><button id="secret">MaskedLabelSecret</button></div>
<button id="thrower" onclick="throw new Error('ThrownBoom')">Throw</button>
<button id="rejecter" onclick="Promise.reject(new Error('RejectedBoom'))">Reject</button>
<div style="height:2000px"></div>`;

function testPage(origin: string, key: string, identify: boolean): string {
  const init = JSON.stringify({ apiKey: key, endpoint: origin, flushInterval: 600_000 });
  const user = identify
    ? `ph.identify("user-42", { email: "ada@example.test", plan: "Enterprise" });`
    : "";
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<script src="${origin}/sdk/v1/playhead.js"></script>
<script>window.ph = Playhead.init(${init});${user}</script></head>
<body>${PAGE}</body></html>`;
}

/** Waits until every island on the page has hydrated. */
async function hydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("fresh-island")]
      .every((island) => island.getAttribute("data-hydrated") === "true")
  );
}

Deno.test("signals e2e: recorded signals, markers, filters, badges and insights", async (t) => {
  const sdkDir = await Deno.makeTempDir({ prefix: "playhead-sdk-" });
  await buildSdk({ outDir: sdkDir, dev: false });
  await esbuild.stop();
  await using server = await startPagesServer({}, { mounts: [sdkAssets({ dir: sdkDir })] });
  const db = server.t.db.kysely;
  const owner = await signedInUser(server.t, { role: "VIEWER" });
  const project = await insertProject(db, { organizationId: owner.organizationId, name: "Shop" });
  // Another session of the organization, without signals: filters must leave it out.
  const quiet = await insertProject(db, { organizationId: owner.organizationId, name: "Docs" });
  const site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const path = new URL(req.url).pathname;
    const shop = path === "/checkout/pay";
    return new Response(testPage(server.url, shop ? project.key : quiet.key, shop), {
      headers: { "content-type": "text/html" },
    });
  });
  const siteUrl = `http://127.0.0.1:${site.addr.port}`;
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    // The SDK's timers (a burst's 1 s end, a dead click's 3 s) run on this controlled clock.
    await page.clock.install();
    const pageErrors: string[] = [];
    page.on("pageerror", (e) => pageErrors.push(e.stack ?? e.message));
    let sessionId = "";

    await t.step("the SDK sends rage and dead clicks and errors; ingest stores them", async () => {
      await page.goto(`${siteUrl}/checkout/pay`);
      sessionId = await page.evaluate(() =>
        (window as unknown as { ph: { sessionId: string } }).ph.sessionId
      );
      // Time stands still from here but for runFor: no timer fires while the clicks are made.
      await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
      // A burst of 4 clicks on the button that does nothing: one rage click of 4, and a dead click.
      for (let i = 0; i < 4; i++) await page.click("#nothing", { delay: 10 });
      await page.clock.runFor(3500);
      // A button that changes the page: no dead click.
      await page.click("#changes");
      // A rage click on a masked element (a dead click too).
      for (let i = 0; i < 3; i++) await page.click("#secret", { delay: 10 });
      await page.click("#thrower");
      await page.click("#rejecter");
      // The dead-click window (3 s) and the last burst's end (1 s) pass; then time flows again.
      await page.clock.runFor(3500);
      await page.clock.resume();
      await page.evaluate(() =>
        (window as unknown as { ph: { flush(): Promise<void> } }).ph.flush()
      );

      const markers: { kind: string; data: unknown }[] = await waitFor(
        async () => {
          const session = await db.selectFrom("sessions").select("id")
            .where("external_id", "=", sessionId).executeTakeFirst();
          if (!session) return null;
          const rows = await db.selectFrom("markers").select(["kind", "data"])
            .where("session_id", "=", session.id).where("kind", "in", [
              "rage_click",
              "dead_click",
              "error",
            ]).orderBy("ts").execute();
          return rows.length >= 6 ? rows : null;
        },
        10_000,
        "signal markers",
      ) ?? [];
      const of = (kind: string) =>
        markers.filter((m) => m.kind === kind).map((m) => m.data as Record<string, unknown>);

      const rage = of("rage_click");
      assert.equal(rage.length, 2, JSON.stringify(markers));
      assert.equal(rage[0].selector, "button#nothing");
      assert.equal(rage[0].text, "Does nothing");
      assert.equal(rage[0].clicks, 4);
      assert.equal(rage[1].selector, "button#secret");
      assert.equal(rage[1].text, "*".repeat("MaskedLabelSecret".length));
      const dead = of("dead_click");
      assert.deepEqual(dead.map((d) => d.selector), ["button#nothing", "button#secret"]);
      // Only the page's own two; the SDK threw nothing into the page (identify() in <head>).
      assert.equal(pageErrors.length, 2, pageErrors.join("\n"));
      const errors = of("error").map((e) => String(e.message));
      assert.equal(errors.length, 2, JSON.stringify(errors));
      assert.match(errors[0], /ThrownBoom/);
      assert.match(errors[1], /RejectedBoom/);

      const session = await db.selectFrom("sessions").selectAll()
        .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
      assert.deepEqual(
        [session.rage_click_count, session.dead_click_count, session.error_count],
        [2, 2, 2],
      );
      assert.deepEqual([session.browser, session.device], ["Chrome", "desktop"]);

      // The masked label is asterisks in every stored byte.
      const batches = await storedBatches(db, project.id, sessionId);
      const all = [...batches.map((b) => b.json), JSON.stringify(markers)].join("\n");
      assert.ok(!all.includes("MaskedLabelSecret"), "the masked text leaked");
    });

    // A second, quiet session in the other project, for the filters to leave out.
    const other = await context.newPage();
    await other.goto(`${siteUrl}/docs`);
    await other.evaluate(() =>
      (window as unknown as { ph: { flush(): Promise<void> } }).ph.flush()
    );
    await waitFor(
      async () => (await db.selectFrom("sessions").select("id").execute()).length >= 2,
      10_000,
      "the quiet session",
    );

    const [name, value] = owner.cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const dashboard = await context.newPage();
    const errors: string[] = [];
    dashboard.on("pageerror", (error) => errors.push(error.message));
    const shopSession = await db.selectFrom("sessions").select("id")
      .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
    /** The ids of the sessions the list shows for a query, in its order. */
    const listed = async (query: string) => {
      await dashboard.goto(`${server.url}/sessions?${query}`);
      await hydrated(dashboard);
      return await dashboard.locator("tbody tr[data-session]").evaluateAll((rows) =>
        rows.map((row) => row.getAttribute("data-session"))
      );
    };

    await t.step("the session is found by each filter, and by user on a trait value", async () => {
      assert.equal((await listed("")).length, 2);
      for (
        const query of [
          "search=ada%40example",
          "search=user-42",
          "user=enterprise",
          "visited=%2Fcheckout*",
          "signals=error",
          "signals=rage_click,dead_click",
          "browser=Chrome&device=desktop&signals=error",
          "minDuration=1000",
        ]
      ) {
        assert.deepEqual(await listed(query), [shopSession.id], query);
      }
      assert.deepEqual(await listed("visited=%2Fcheckout"), []);
      assert.deepEqual(await listed("device=mobile"), []);
    });

    await t.step("the filter bar sets the filters; the badges show", async () => {
      await dashboard.goto(`${server.url}/sessions`);
      await hydrated(dashboard);
      const form = dashboard.getByRole("form", { name: "Filter sessions" });
      await form.locator("details.menu summary").first().click();
      await form.getByRole("checkbox", { name: "Errors" }).check();
      await form.locator("details.menu summary").first().click(); // closes the menu
      await form.getByLabel("Page visited").fill("/checkout*");
      await form.getByLabel("Browser").selectOption("Chrome");
      await form.getByRole("button", { name: "Apply" }).click();
      await dashboard.waitForLoadState("load");
      await hydrated(dashboard);
      const url = new URL(dashboard.url());
      assert.deepEqual(url.searchParams.getAll("signals"), ["error"]);
      assert.equal(url.searchParams.get("visited"), "/checkout*");
      const rows = dashboard.locator("tbody tr[data-session]");
      assert.equal(await rows.count(), 1);
      assert.equal(await rows.first().getAttribute("data-session"), shopSession.id);
      const badges = await rows.first().getByTestId("signals").locator(".badge").allTextContents();
      assert.deepEqual(badges, ["2 errors", "2 rage clicks", "2 dead clicks"]);
      assert.match(await rows.first().textContent() ?? "", /Chrome · Desktop/);
      await dashboard.screenshot({
        path: await artifactPath("sessions-signals.png"),
        fullPage: true,
      });
    });
    await t.step("the replay's History lists the signals with text and selector", async () => {
      await dashboard.goto(`${server.url}/replays/${shopSession.id}`);
      await hydrated(dashboard);
      const rage = dashboard.locator(".history-row[data-kind=rage_click]");
      await rage.first().waitFor();
      assert.equal(await rage.count(), 2);
      assert.match(
        await rage.first().textContent() ?? "",
        /4 clicks on “Does nothing”.*button#nothing/,
      );
      assert.equal(await dashboard.locator(".history-row[data-kind=dead_click]").count(), 2);
      const error = dashboard.locator(".history-row[data-kind=error]");
      assert.match(await error.first().textContent() ?? "", /ThrownBoom/);
      await dashboard.screenshot({
        path: await artifactPath("replay-signals.png"),
        fullPage: true,
      });
    });
    await t.step("/insights lists the element and the error and links to the session", async () => {
      await dashboard.goto(`${server.url}/insights`);
      await hydrated(dashboard);
      const rage = dashboard.getByTestId("insights-rage_click");
      assert.match(await rage.textContent() ?? "", /“Does nothing”\s*button#nothing/);
      const errorsTable = dashboard.getByTestId("insights-errors");
      assert.match(await errorsTable.textContent() ?? "", /ThrownBoom/);
      await dashboard.locator(".insights-trend canvas").first().waitFor();
      await dashboard.screenshot({ path: await artifactPath("insights.png"), fullPage: true });
      for (const link of [rage.getByRole("link").first(), errorsTable.getByRole("link").first()]) {
        await dashboard.goto(`${server.url}/insights`);
        await link.click();
        await dashboard.waitForURL(/\/sessions\?/);
        await hydrated(dashboard);
        const rows = dashboard.locator("tbody tr[data-session]");
        assert.equal(await rows.count(), 1, dashboard.url());
        assert.equal(await rows.first().getAttribute("data-session"), shopSession.id);
        assert.match(await rows.first().textContent() ?? "", /ada@example.test/);
      }
    });
    await t.step(
      "/insights at 1280 and 1440: every Errors column shows; a group unfolds its whole message and stack",
      async () => {
        for (const width of [1280, 1440]) {
          await dashboard.setViewportSize({ width, height: 900 });
          await dashboard.goto(`${server.url}/insights`);
          await hydrated(dashboard);
          const table = dashboard.getByTestId("insights-errors");
          const box = (await table.locator("xpath=..").boundingBox())!;
          const heads = await table.locator("th").allInnerTexts();
          assert.deepEqual(heads.map((h) => h.toLowerCase()), [
            "error group",
            "sessions",
            "users",
            "first seen",
            "last seen",
          ]);
          for (const head of await table.locator("th").all()) {
            const { x, width: w } = (await head.boundingBox())!;
            assert.ok(
              x + w <= box.x + box.width + 0.5,
              `${await head.innerText()} cut at ${width}`,
            );
          }
          const thrown = table.locator("tr", { hasText: "ThrownBoom" });
          const detail = thrown.locator(".error-group-detail");
          assert.equal(await detail.locator("pre").isVisible(), false);
          await detail.getByText("Message and stack").click();
          const shown = await detail.locator("pre").innerText();
          const [message, ...frames] = shown.split("\n");
          assert.match(message, /ThrownBoom/);
          assert.ok(frames.length >= 1, shown);
          assert.match(frames[0], /onclick/);
          // whole: the text wraps in the cell, never cut on the right
          assert.ok(
            await detail.locator("pre").evaluate((pre) => pre.scrollWidth <= pre.clientWidth),
          );
          await dashboard.screenshot({
            path: await artifactPath(`insights-errors-${width}.png`),
            fullPage: true,
          });
        }
      },
    );
    await t.step("/insights today draws a line of hours; all time says what is kept", async () => {
      await dashboard.goto(`${server.url}/insights?range=today`);
      await hydrated(dashboard);
      await dashboard.locator(".insights-trend canvas").first().waitFor();
      assert.match(
        await dashboard.locator(".insights-trend [role=img]").getAttribute("aria-label") ?? "",
        /signals per hour today \(UTC\)/,
      );
      assert.match(await dashboard.locator(".u-legend").innerText(), /Errors\s*2 in range/);
      await dashboard.screenshot({
        path: await artifactPath("insights-today.png"),
        fullPage: true,
      });
      await dashboard.locator("select[name=range]").selectOption({
        label: "All time (as kept)",
      });
      await dashboard.getByRole("button", { name: "Apply" }).click();
      await dashboard.waitForURL(/range=all/);
      await dashboard.getByText("All time is every session still kept").waitFor();
      assert.match(await dashboard.getByTestId("insights-errors").innerText(), /ThrownBoom/);
    });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await site.shutdown();
    await Deno.remove(sdkDir, { recursive: true });
  }
});
