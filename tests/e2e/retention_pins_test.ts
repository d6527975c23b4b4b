// Browser test of retention and pins: the project settings page's Retention
// section says how many sessions the next cleanup deletes and saves a new retention; the sessions
// list pins a session (its toggle pressed, the pin stored), `?pinned=true` lists only it; the
// replay page unpins it. Screenshots of the three pages.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { artifactPath, launchChromium, signedInPage } from "@/tests/helpers/browser.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";

const DAY = 86_400_000;

/** Waits until every island on the page has hydrated (a click before would do nothing). */
async function hydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("fresh-island")]
      .every((island) => island.getAttribute("data-hydrated") === "true")
  );
}

Deno.test("retention and pins e2e: the settings page counts and saves, the list and the replay pin and unpin", async () => {
  await using server = await startPagesServer();
  const admin = await signedInUser(server.t, { role: "ADMIN" });
  const db = server.t.db.kysely;
  const project = await insertProject(db, { organizationId: admin.organizationId, name: "Shop" });
  const now = Date.now();
  await insertSession(db, project, {
    createdAt: new Date(now - 5 * DAY),
    url: "https://shop.test/old",
  });
  const kept = await insertSession(db, project, {
    createdAt: new Date(now - 2 * DAY),
    url: "https://shop.test/checkout",
  });
  const pinnedAt = async () =>
    (await db.selectFrom("sessions").select("pinned_at").where("id", "=", kept.id)
      .executeTakeFirstOrThrow()).pinned_at;
  const browser = await launchChromium();
  try {
    const { page, errors } = await signedInPage(browser, server.url, admin.cookie);

    await page.goto(`${server.url}/projects/${project.id}/settings`);
    const effect = page.getByTestId("retention-effect");
    assert.match(await effect.innerText(), /deletes none/);
    await page.getByLabel(/Keep sessions for/).fill("3");
    await page.getByRole("button", { name: "Save retention" }).click();
    await page.getByText("Retention saved").waitFor();
    assert.match(await effect.innerText(), /deletes 1 session older than 3 days/);
    const retention = page.locator("section", {
      has: page.getByRole("heading", { name: "Retention" }),
    });
    await retention.screenshot({ path: await artifactPath("retention_settings.png") });

    await page.goto(`${server.url}/sessions`);
    await hydrated(page);
    const row = page.locator(`tr[data-session="${kept.id}"]`);
    await row.getByRole("button", { name: "Pin", exact: true }).click();
    await row.getByRole("button", { name: "Pinned" }).waitFor();
    assert.equal(
      await row.getByRole("button", { name: "Pinned" }).getAttribute("aria-pressed"),
      "true",
    );
    assert.ok(await pinnedAt());
    await page.screenshot({ path: await artifactPath("sessions_pinned.png") });
    await page.locator("select[name=pinned]").selectOption("true");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/pinned=true/);
    const ids = await page.locator("[data-testid=sessions-table] tbody tr[data-session]")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-session")));
    assert.deepEqual(ids, [kept.id]);

    await page.goto(`${server.url}/replays/${kept.id}`);
    await hydrated(page);
    const pin = page.getByTestId("pin-button");
    assert.equal(await pin.innerText(), "Pinned");
    await page.locator(".replay-heading").screenshot({
      path: await artifactPath("replay_pinned.png"),
    });
    await pin.click();
    await page.getByRole("button", { name: "Pin", exact: true }).waitFor();
    assert.equal(await pinnedAt(), null);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
