// The sessions list in Chromium on a seeded organization: filters by search, project
// and range, sorts by date and duration both ways, the back button restores a filter, an ADMIN
// deletes a session after confirming, a VIEWER pages with "Load more" and has no delete, and a row
// opens its replay.
import assert from "node:assert/strict";
import type { Browser, Page } from "playwright-core";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { seedDashboard } from "@/tests/helpers/dashboard_seed.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { insertSessions } from "@/tests/helpers/sessions_factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";

const MINUTE = 60_000;
const DAY = 86_400_000;

async function pageFor(browser: Browser, origin: string, cookie: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const [name, value] = cookie.split("=");
  await context.addCookies([{ name, value, url: origin }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { page, errors };
}

/** Waits until every island on the page has hydrated. */
async function hydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("fresh-island")]
      .every((island) => island.getAttribute("data-hydrated") === "true")
  );
}

const rows = (page: Page) => page.getByTestId("sessions-table").locator("tbody tr[data-session]");
const shownIds = async (page: Page) =>
  await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session")!));
/** The duration column (the sixth cell of a row with the user column). */
const shownDurations = async (page: Page) =>
  (await rows(page).locator("td:nth-child(6)").allTextContents()).map((t) => t.trim());

async function applyFilters(page: Page) {
  await page.getByRole("button", { name: "Apply" }).click();
  await page.waitForLoadState("load");
  await hydrated(page);
}

const DEFAULTS: Record<string, string> = {
  search: "",
  visited: "",
  browser: "",
  device: "",
  minDuration: "",
  maxDuration: "",
  reason: "",
  vital: "",
  hasComments: "",
  comment: "",
  pinned: "",
  range: "all",
  sort: "date",
  sortDir: "desc",
};

/** The page URL's query without the values that change nothing (the form sends every field). */
function query(page: Page): Record<string, string[]> {
  const params = new URL(page.url()).searchParams;
  const out: Record<string, string[]> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key).filter((v) => v !== DEFAULTS[key]);
    if (values.length) out[key] = values;
  }
  return out;
}

const projectsMenu = (page: Page) =>
  page.getByRole("form", { name: "Filter sessions" }).locator("details.menu summary", {
    hasText: /project|Docs site/,
  });

Deno.test("sessions list e2e: filters, sorts, back button, delete with confirmation, paging, replay", async (t) => {
  await using server = await startPagesServer();
  const db = server.t.db.kysely;
  const now = Date.now();
  const admin = await signedInUser(server.t, { role: "ADMIN" });
  const seed = await seedDashboard(db, admin.organizationId, now);
  const everyone = [...seed.ada.sessions, ...seed.grace.sessions, ...seed.anonymous];
  const newestFirst = [...everyone].sort((a, b) => b.created_at.getTime() - a.created_at.getTime());
  const browser = await launchChromium();
  try {
    const { page, errors } = await pageFor(browser, server.url, admin.cookie);
    await page.goto(`${server.url}/sessions`);
    await hydrated(page);

    await t.step("every session, newest first, identified and anonymous", async () => {
      assert.deepEqual(await shownIds(page), newestFirst.map((s) => s.id));
      const users = (await rows(page).locator("td:first-child").allTextContents())
        .map((u) => u.trim());
      assert.deepEqual(
        [...new Set(users)].sort(),
        ["Ada Lovelace", "Anonymous", "grace-42"],
      );
      assert.equal(await page.getByTestId("kpi-total").textContent(), "8");
      // At 1280 px every column fits, the row's actions too, and STARTED is one line.
      const fits = await page.getByTestId("sessions-table").evaluate((table) => {
        const box = table.parentElement!;
        const started = [...table.querySelectorAll("tbody tr td.nowrap time")];
        return {
          overflow: box.scrollWidth - box.clientWidth,
          lines: started.map((t) => t.getClientRects().length),
        };
      });
      assert.ok(fits.overflow <= 0, `the table overflows by ${fits.overflow} px`);
      assert.ok(fits.lines.length > 0 && fits.lines.every((n) => n === 1), String(fits.lines));
      await page.screenshot({ path: await artifactPath("sessions-list.png"), fullPage: true });
    });

    await t.step("range and project filters narrow the list and land in the URL", async () => {
      await page.getByLabel("Range").selectOption("7d");
      await applyFilters(page);
      assert.deepEqual(query(page).range, ["7d"]);
      const week = newestFirst.filter((s) => now - s.created_at.getTime() <= 7 * DAY);
      assert.deepEqual(await shownIds(page), week.map((s) => s.id));

      await projectsMenu(page).click();
      await page.getByRole("checkbox", { name: "Docs site" }).check();
      await applyFilters(page);
      assert.deepEqual(query(page), { range: ["7d"], projectIds: [seed.docs.id] });
      const docsWeek = week.filter((s) => s.project_id === seed.docs.id);
      assert.equal(docsWeek.length, 2);
      assert.deepEqual(await shownIds(page), docsWeek.map((s) => s.id));
      assert.equal(await projectsMenu(page).textContent(), "Docs site");
      await page.screenshot({ path: await artifactPath("sessions-filtered.png"), fullPage: true });
    });

    await t.step(
      "search finds a session by its id; back restores the previous filter",
      async () => {
        const target = seed.anonymous[1]; // a Docs site session of two days ago
        await page.getByRole("searchbox", { name: "Search" }).fill(target.external_id.slice(0, 13));
        await applyFilters(page);
        assert.deepEqual(query(page).search, [target.external_id.slice(0, 13)]);
        assert.deepEqual(await shownIds(page), [target.id]);

        await page.goBack();
        await page.waitForURL((url) => !url.searchParams.get("search"));
        await hydrated(page);
        assert.deepEqual(query(page), { range: ["7d"], projectIds: [seed.docs.id] });
        assert.equal(await shownIds(page).then((ids) => ids.length), 2);
        assert.equal(await page.getByLabel("Range").inputValue(), "7d");
        assert.equal(await page.getByRole("searchbox", { name: "Search" }).inputValue(), "");

        // A search that matches nothing says so and offers the way back.
        await page.getByRole("searchbox", { name: "Search" }).fill("no-such-session");
        await applyFilters(page);
        await page.getByTestId("sessions-no-match").waitFor();
        await page.getByRole("link", { name: "Clear filters" }).click();
        await page.waitForURL(`${server.url}/sessions`);
        await hydrated(page);
        assert.equal(await rows(page).count(), 8);
      },
    );

    await t.step("a web vital's rating filters the list and lands in the URL", async () => {
      const shifty = seed.ada.sessions[0];
      await db.updateTable("sessions").set({ web_vitals: ["lcp:good", "cls:poor"] })
        .where("id", "=", shifty.id).execute();
      await page.getByLabel("Web vitals").selectOption({ label: "CLS poor" });
      await applyFilters(page);
      assert.deepEqual(query(page), { vital: ["cls:poor"] });
      assert.deepEqual(await shownIds(page), [shifty.id]);
      await page.getByLabel("Web vitals").selectOption({ label: "Any poor" });
      await applyFilters(page);
      assert.deepEqual(await shownIds(page), [shifty.id]);
      await page.screenshot({ path: await artifactPath("sessions-vital-1280.png") });
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.screenshot({ path: await artifactPath("sessions-vital-1440.png") });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${server.url}/sessions`);
      await hydrated(page);
    });

    await t.step("sorts by date and by duration, both directions", async () => {
      await page.getByLabel("Sort by").selectOption("date");
      await page.getByLabel("Order").selectOption("asc");
      await applyFilters(page);
      assert.deepEqual(query(page), { sortDir: ["asc"] });
      assert.deepEqual(await shownIds(page), [...newestFirst].reverse().map((s) => s.id));

      const byDuration = [...everyone].map((s) => s.ended_at!.getTime() - s.started_at.getTime())
        .sort((a, b) => a - b);
      const asText = (ms: number) => {
        const seconds = Math.round(ms / 1000); // every seeded session is minutes long
        const rest = seconds % 60;
        return `${Math.floor(seconds / 60)} min${rest ? ` ${rest} s` : ""}`;
      };
      await page.getByLabel("Sort by").selectOption("duration");
      await applyFilters(page);
      assert.deepEqual(query(page), { sort: ["duration"], sortDir: ["asc"] });
      assert.deepEqual(await shownDurations(page), byDuration.map(asText));

      await page.getByLabel("Order").selectOption("desc");
      await applyFilters(page);
      assert.deepEqual(query(page), { sort: ["duration"] });
      assert.deepEqual(await shownDurations(page), byDuration.reverse().map(asText));
    });

    await t.step("an ADMIN deletes a session only after confirming", async () => {
      await page.goto(`${server.url}/sessions`);
      await hydrated(page);
      const victim = newestFirst[1];
      const row = page.locator(`tr[data-session="${victim.id}"]`);
      await row.getByRole("button", { name: "Delete" }).click();
      const confirm = row.getByRole("group", { name: "Confirm deletion" });
      await confirm.waitFor();
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "detached" });
      assert.equal(await rows(page).count(), 8);

      await row.getByRole("button", { name: "Delete" }).click();
      await page.screenshot({ path: await artifactPath("sessions-confirm-delete.png") });
      await row.getByRole("button", { name: "Yes, delete" }).click();
      await row.waitFor({ state: "detached" });
      assert.equal(await rows(page).count(), 7);
      const gone = await db.selectFrom("sessions").select("id").where("id", "=", victim.id)
        .executeTakeFirst();
      assert.equal(gone, undefined);
      await page.reload();
      await hydrated(page);
      assert.equal(await rows(page).count(), 7);
      assert.equal(await page.getByTestId("kpi-total").textContent(), "7");
    });

    await t.step("a row opens its replay", async () => {
      const first = newestFirst[0];
      await page.locator(`tr[data-session="${first.id}"]`).getByRole("link", { name: /Replay/ })
        .click();
      await page.waitForURL(`${server.url}/replays/${first.id}`);
      assert.match(await page.locator("h1").textContent() ?? "", /^Replay:\s*\S/);
    });

    await t.step(
      "a session that arrives while the list is open is announced, then shown",
      async () => {
        await page.goto(`${server.url}/sessions`);
        await hydrated(page);
        const bar = page.getByTestId("new-sessions");
        assert.equal(await bar.textContent(), "");
        const externalId = crypto.randomUUID();
        const res = await postIngest(server.t.app, {
          sessionId: externalId,
          events: recordedEvents(3, Date.now() - 5_000),
          metadata: METADATA,
        }, { key: seed.docs.key });
        assert.equal(res.status, 204);
        // Coming back to the tab asks at once (else the next beat, DASHBOARD_LIVE_REFRESH_MS).
        await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
        const show = bar.getByRole("button", { name: "1 new session · Show" });
        await show.waitFor();
        await page.screenshot({ path: await artifactPath("sessions-new-bar.png") });
        await show.click();
        await page.waitForLoadState("load");
        const { id } = await db.selectFrom("sessions").select("id")
          .where("external_id", "=", externalId).executeTakeFirstOrThrow();
        assert.equal((await shownIds(page))[0], id);
        assert.equal(await page.getByTestId("new-sessions").textContent(), "");
      },
    );
    assert.deepEqual(errors, []);

    await t.step("a VIEWER pages with Load more and is offered no delete", async () => {
      const viewer = await signedInUser(server.t, { role: "VIEWER" });
      const bulk = await insertProject(db, { organizationId: viewer.organizationId, name: "Bulk" });
      const seeds = Array.from({ length: 23 }, (_, i) => ({
        createdAt: new Date(now - (i + 1) * 10 * MINUTE),
        durationMs: (i + 1) * 1000,
      }));
      const stored = await insertSessions(db, bulk, seeds);
      const expected = [...stored].sort((a, b) => b.created_at.getTime() - a.created_at.getTime())
        .map((s) => s.id);
      const { page: viewerPage, errors: viewerErrors } = await pageFor(
        browser,
        server.url,
        viewer.cookie,
      );
      await viewerPage.goto(`${server.url}/sessions`);
      await hydrated(viewerPage);
      assert.deepEqual(await shownIds(viewerPage), expected.slice(0, 20));
      assert.equal(await viewerPage.getByRole("button", { name: "Delete" }).count(), 0);

      await viewerPage.getByRole("link", { name: "Load more" }).click();
      await viewerPage.getByText("Showing 23 sessions · end of the list").waitFor();
      await viewerPage.screenshot({
        path: await artifactPath("sessions-viewer-paged.png"),
        fullPage: true,
      });
      assert.deepEqual(await shownIds(viewerPage), expected);
      assert.equal(await viewerPage.getByRole("link", { name: "Load more" }).count(), 0);
      assert.equal(new URL(viewerPage.url()).pathname, "/sessions");
      assert.equal(await viewerPage.getByRole("button", { name: "Delete" }).count(), 0);
      assert.deepEqual(viewerErrors, []);
    });
  } finally {
    await browser.close();
  }
});
