// Browser test of the users list on a seeded organization: the status chips and the sort narrow
// and order the list through the URL (and the back button undoes them), and an ingest batch for a
// tracked user turns their online dot and the "Online now" card on without a reload. The live
// refresh is shortened through its setting (DASHBOARD_LIVE_REFRESH_MS). Screenshots go to .scratch/.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { launchChromium } from "@/tests/helpers/browser.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { seedDashboard } from "@/tests/helpers/dashboard_seed.ts";
import { gzipBytes, METADATA, recordedEvents } from "@/tests/helpers/ingest.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { DAY, MINUTE, seedTrackedUser } from "@/tests/helpers/tracked_users_factories.ts";

const SCRATCH = fileURLToPath(new URL("../../.scratch/", import.meta.url));

async function screenshot(page: Page, name: string) {
  await Deno.mkdir(SCRATCH, { recursive: true });
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCRATCH}users-${name}-${width}.png`, fullPage: true });
  }
}

const filters = (page: Page) => page.getByRole("form", { name: "Filter users" });

const shownUsers = (page: Page) =>
  page.locator("[data-testid='users-table'] tbody tr").evaluateAll((rows) =>
    rows.map((row) => row.querySelector(".row-link")?.textContent ?? "")
  );

Deno.test("users e2e: status filter and sort through the URL; a batch turns the online dot on", async (t) => {
  await using server = await startPagesServer({ DASHBOARD_LIVE_REFRESH_MS: "400" });
  const db = server.t.db.kysely;
  const owner = await signedInUser(server.t);
  const seed = await seedDashboard(db, owner.organizationId);
  const now = Date.now();
  await seedTrackedUser(db, seed.shop, {
    externalId: "lin@example.test",
    traits: { name: "Lin Chen", plan: "team", company: "Acme Corp", country: "NZ" },
    traitKey: "name",
    createdAt: new Date(now - 2 * DAY),
    sessions: [{ start: now - 9 * DAY, durationMs: 14 * MINUTE, eventCount: 200 }],
  });
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = owner.cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${server.url}/users`);
    await page.locator("fresh-island[data-hydrated='true']").first().waitFor();
    await page.locator("fresh-island[data-hydrated='true']").nth(1).waitFor();

    await t.step("the list, newest activity first, then filtered by status", async () => {
      assert.deepEqual(await shownUsers(page), ["Ada Lovelace", "grace-42", "Lin Chen"]);
      await screenshot(page, "list");
      await filters(page).getByText("Idle 7 d").click();
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(/statuses=IDLE_7D/);
      assert.deepEqual(await shownUsers(page), ["grace-42"]);
      assert.equal(await page.getByRole("checkbox", { name: "Idle 7 d" }).isChecked(), true);
      await filters(page).getByText("Dormant").click();
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(/statuses=IDLE_7D&statuses=DORMANT/);
      assert.deepEqual(await shownUsers(page), ["grace-42", "Lin Chen"]);
      await screenshot(page, "filtered");
      await page.goBack();
      await page.waitForURL((url) =>
        url.search === "?search=&statuses=IDLE_7D&sort=last-seen&sortDir=desc"
      );
      assert.deepEqual(await shownUsers(page), ["grace-42"]);
    });

    await t.step("sorted by sessions, then by active time ascending", async () => {
      await page.goto(`${server.url}/users`);
      await page.getByLabel("Sort by").selectOption("sessions");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(/sort=sessions/);
      assert.equal((await shownUsers(page))[0], "Ada Lovelace");
      await page.getByLabel("Sort by").selectOption("active-time");
      await page.getByLabel("Order").selectOption("asc");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL(/sort=active-time&sortDir=asc/);
      assert.deepEqual(await shownUsers(page), ["grace-42", "Lin Chen", "Ada Lovelace"]);
    });

    await t.step("an ingest batch for Ada turns her dot and Online now on", async () => {
      await page.goto(`${server.url}/users`);
      await page.locator("fresh-island[data-hydrated='true']").nth(1).waitFor();
      const ada = page.locator(`tr[data-user="${seed.ada.user.id}"]`);
      assert.equal(await ada.getByTestId("online-dot").getAttribute("data-online"), "false");
      assert.equal(await page.getByTestId("kpi-online").textContent(), "0");

      const start = Date.now();
      const body = JSON.stringify({
        sessionId: crypto.randomUUID(),
        events: recordedEvents(5, start - 4_000),
        metadata: { ...METADATA, userIdentity: { userId: "ada@example.test" } },
      });
      const res = await fetch(`${server.url}/api/ingest`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-encoding": "gzip",
          "x-service-public-key": seed.shop.key,
        },
        body: await gzipBytes(new TextEncoder().encode(body)),
      });
      assert.equal(res.status, 204);

      await ada.locator("[data-online='true']").waitFor();
      await page.getByTestId("kpi-online").filter({ hasText: "1" }).waitFor();
      assert.equal(await ada.getAttribute("data-status"), "ONLINE");
      assert.match(await ada.locator("time").textContent() ?? "", /just now|seconds? ago/);
      await screenshot(page, "online");
      assert.deepEqual(errors, []);
    });

    await t.step("when the API refuses (signed out elsewhere), the page says so", async () => {
      await context.clearCookies();
      await page.getByRole("alert").filter({ hasText: /Live status paused/ }).waitFor();
      await page.getByRole("alert").filter({ hasText: /Could not refresh these numbers/ })
        .waitFor();
      assert.equal(await page.getByTestId("kpi-online").textContent(), "1", "last numbers kept");
      await screenshot(page, "api-error");
    });
    await context.close();

    await t.step(
      "an organization whose sessions name nobody sees how to identify users",
      async () => {
        const newcomer = await signedInUser(server.t);
        await insertProject(db, { organizationId: newcomer.organizationId });
        const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const [name, value] = newcomer.cookie.split("=");
        await fresh.addCookies([{ name, value, url: server.url }]);
        const empty = await fresh.newPage();
        await empty.goto(`${server.url}/users`);
        await empty.getByRole("heading", { name: "No tracked users yet" }).waitFor();
        assert.match(await empty.getByTestId("identify-snippet").textContent() ?? "", /identify\(/);
        await screenshot(empty, "empty");

        // Past a page of users, "Load more" appends the next page in place.
        const project = await insertProject(db, { organizationId: newcomer.organizationId });
        for (let i = 0; i < 27; i++) {
          await seedTrackedUser(db, project, {
            externalId: `visitor-${String(i).padStart(2, "0")}`,
            sessions: [{ start: now - DAY + i * MINUTE }],
          });
        }
        await empty.goto(`${server.url}/users`);
        await empty.locator("fresh-island[data-hydrated='true']").nth(1).waitFor();
        assert.equal((await shownUsers(empty)).length, 25);
        await empty.getByRole("link", { name: "Load more" }).click();
        await empty.getByText("Showing 27 users · end of the list").waitFor();
        assert.deepEqual((await shownUsers(empty)).slice(-2), ["visitor-01", "visitor-00"]);
        assert.equal(new URL(empty.url()).search, "", "appended in place, no navigation");
        await fresh.close();
      },
    );
  } finally {
    await browser.close();
  }
});
