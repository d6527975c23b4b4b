// Browser tests of the tracked user page on a seeded user (five sessions over three days, several
// pages each): the timeline and the activity chart draw for every window with the seed's numbers,
// hovering a period says what it is, a click opens the replay at that period's start, a user with
// hundreds of sessions stays readable, and the status turns online when the user sends a batch. Screenshots land in .scratch/ (not committed).
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchChromium } from "@/tests/helpers/browser.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import {
  ADA_SESSIONS,
  expectedIn,
  seedBusyUser,
  seedUserPage,
  WINDOW_MS,
} from "@/tests/helpers/user_page_seed.ts";

const SHOTS = new URL("../../.scratch/", import.meta.url);

async function signedInPage(url: string, cookie: string, width = 1280) {
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const [name, value] = cookie.split("=");
  await context.addCookies([{ name, value, url }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { browser, page, errors };
}

/** Waits until both charts show the window's data (no loading placeholder left). */
async function chartsReady(page: Page, range: string) {
  await page.locator(`.user-charts[data-range="${range}"]`).waitFor();
  await page.locator(".chart-placeholder").first().waitFor({ state: "detached" });
  await page.locator(".activity-chart").waitFor();
}

async function shot(page: Page, name: string) {
  await Deno.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: new URL(name, SHOTS).pathname, fullPage: true });
}

Deno.test("user page e2e: the timeline and the activity chart draw each window with the seed's numbers", async () => {
  await using server = await startPagesServer();
  const owner = await signedInUser(server.t);
  const { user } = await seedUserPage(server.t.db.kysely, owner.organizationId);
  const { browser, page, errors } = await signedInPage(server.url, owner.cookie);
  try {
    await page.goto(`${server.url}/users/${user.id}?range=6h`);
    for (const range of ["6h", "24h", "7d"] as const) {
      if (range !== "6h") {
        await page.getByRole("link", { name: `Last ${range === "24h" ? "24 hours" : "7 days"}` })
          .click();
        assert.equal(new URL(page.url()).searchParams.get("range"), range);
      }
      await chartsReady(page, range);
      const expected = expectedIn(range);
      const inWindow = ADA_SESSIONS.filter((s) => s.ago <= WINDOW_MS[range]);
      // The timeline: one bar per session, one coloured rect per page period.
      assert.equal(await page.locator(".tl-session").count(), expected.sessions, range);
      assert.equal(
        await page.locator(".tl-period").count(),
        inWindow.reduce((n, s) => n + s.pages.length, 0),
        range,
      );
      assert.ok(await page.locator(".tl-tick").count() >= 6, `${range}: labelled ticks`);
      // Its text alternative lists the same sessions.
      assert.equal(
        await page.locator("[data-testid=timeline-table] tbody tr").count(),
        expected.sessions,
      );
      // The activity chart: a canvas, and the table behind it adds up to the seed's events.
      await page.locator(".activity-plot canvas").waitFor();
      const totals = await page.locator("[data-testid=activity-table] td[data-total]")
        .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute("data-total"))));
      assert.equal(totals.reduce((a, b) => a + b, 0), expected.events, range);
      assert.match(
        await page.locator(".activity-chart [role=img]").getAttribute("aria-label") ?? "",
        new RegExp(`^Stacked bar chart of ${expected.events} events`),
      );
      assert.equal(await page.getByTestId("sum-sessions").textContent(), String(expected.sessions));
      assert.equal(await page.getByTestId("sum-events").textContent(), String(expected.events));
      assert.equal(await page.getByTestId("sum-pages").textContent(), String(expected.pages));
      assert.equal(
        await page.locator("[data-testid=page-shares] tbody tr[data-page]").count(),
        expected.pages,
      );
      await shot(page, `user-page-${range}-1280.png`);
    }
    // Back goes to the previous window.
    await page.goBack();
    await chartsReady(page, "24h");
    await page.setViewportSize({ width: 1024, height: 900 });
    await page.waitForTimeout(200); // let uPlot follow the resize before the picture
    await shot(page, "user-page-24h-1024.png");
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

Deno.test("user page e2e: hovering a period names it; a click opens the replay at its start", async () => {
  await using server = await startPagesServer();
  const owner = await signedInUser(server.t);
  const { user, sessions } = await seedUserPage(server.t.db.kysely, owner.organizationId);
  const { browser, page, errors } = await signedInPage(server.url, owner.cookie);
  try {
    await page.goto(`${server.url}/users/${user.id}?range=24h`);
    await chartsReady(page, "24h");
    const target = sessions[2]; // /pricing → /cart → /checkout → /docs
    const cart = page.locator(`g[data-session="${target.id}"] a`).nth(1);
    await cart.hover();
    const tip = page.getByRole("tooltip");
    await tip.waitFor();
    assert.match(await tip.textContent() ?? "", /\/cart.*https:\/\/shop\.test\/cart/s);
    assert.match(await tip.textContent() ?? "", /Click to replay from here/);
    await cart.click();
    await page.waitForURL(/\/replays\//);
    const url = new URL(page.url());
    assert.equal(url.pathname, `/replays/${target.id}`);
    assert.equal(url.searchParams.get("t"), String(Math.round(target.step)));
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

Deno.test("user page e2e: a user with hundreds of sessions gets a bounded, readable timeline", async () => {
  await using server = await startPagesServer();
  const owner = await signedInUser(server.t);
  const { project } = await seedUserPage(server.t.db.kysely, owner.organizationId);
  const { user } = await seedBusyUser(server.t.db.kysely, project, 260);
  const { browser, page, errors } = await signedInPage(server.url, owner.cookie);
  try {
    await page.goto(`${server.url}/users/${user.id}?range=7d`);
    await chartsReady(page, "7d");
    assert.match(
      await page.getByTestId("timeline-truncated").textContent() ?? "",
      /Showing the newest 200 of 260 sessions/,
    );
    assert.equal(await page.locator(".tl-session").count(), 200);
    assert.match(
      await page.locator(".activity-chart").textContent() ?? "",
      /No events in this window/,
    );
    await shot(page, "user-page-busy-7d-1280.png");
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

Deno.test("user page e2e: the status turns online when a batch for the user arrives", async () => {
  await using server = await startPagesServer();
  const owner = await signedInUser(server.t);
  const { project, user } = await seedUserPage(server.t.db.kysely, owner.organizationId);
  const { browser, page, errors } = await signedInPage(server.url, owner.cookie);
  try {
    await page.goto(`${server.url}/users/${user.id}`);
    const status = page.getByTestId("online-status");
    await page.locator("fresh-island[data-island=OnlineStatus][data-hydrated=true]").waitFor();
    assert.equal(await status.getAttribute("data-online"), "false");
    assert.match(await status.textContent() ?? "", /Last seen 30 minutes ago/);

    const res = await postIngest(server.t.app, {
      sessionId: crypto.randomUUID(),
      events: recordedEvents(3, Date.now() - 2000),
      metadata: { ...METADATA, userIdentity: { userId: "ada@example.test", traits: {} } },
    }, { key: project.key, gzip: true });
    assert.equal(res.status, 204);
    // Coming back to the tab asks at once (otherwise the next beat does, within DASHBOARD_LIVE_REFRESH_MS).
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await page.locator("[data-testid=online-status][data-online=true]").waitFor();
    assert.match(await status.textContent() ?? "", /Online now/);

    // A 1,024-character name (and trait) keeps the page as wide as the window: one line, cut.
    const long = "W".repeat(1024);
    assert.equal(
      (await postIngest(server.t.app, {
        sessionId: crypto.randomUUID(),
        events: recordedEvents(3, Date.now() - 2000),
        metadata: {
          ...METADATA,
          userIdentity: { userId: "w", traits: { name: long, note: long } },
        },
      }, { key: project.key })).status,
      204,
    );
    const { id } = await server.t.db.kysely.selectFrom("tracked_users").select("id")
      .where("external_id", "=", "w").executeTakeFirstOrThrow();
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}/users/${id}`);
      assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), width);
      await shot(page, `user-long-name-${width}.png`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
