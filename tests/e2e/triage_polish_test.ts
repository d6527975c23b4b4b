// Browser test of the dashboard's polish, each looked at in a screenshot: the sessions filters' "Has"
// menu (a popover over the form), the KPI cards after a delete, the insights legend, a second
// sign-in code, the favicon.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { seedDashboard } from "@/tests/helpers/dashboard_seed.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";

async function hydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("fresh-island")]
      .every((island) => island.getAttribute("data-hydrated") === "true")
  );
}

Deno.test("triage e2e: the dashboard polish", async (t) => {
  await using server = await startPagesServer();
  const admin = await signedInUser(server.t, { role: "ADMIN" });
  await seedDashboard(server.t.db.kysely, admin.organizationId);
  await using browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const [name, value] = admin.cookie.split("=");
  await context.addCookies([{ name, value, url: server.url }]);
  const page = await context.newPage();

  await t.step(
    "Has: a popover that moves no field, names the ticks at once, says they combine, covers no button",
    async () => {
      await page.goto(`${server.url}/sessions`);
      const form = page.getByRole("form", { name: "Filter sessions" });
      const summary = form.locator(".signals-menu summary");
      assert.equal((await summary.innerText()).trim(), "Any");
      /** Where each of the form's fields and buttons is, and the form's own height. */
      const layout = () =>
        form.evaluate((el) => [
          el.getBoundingClientRect().height,
          ...[...el.querySelectorAll(":scope > .field, :scope > label, :scope .row, :scope button")]
            .map((f) => {
              const r = f.getBoundingClientRect();
              return `${Math.round(r.x)},${Math.round(r.y)},${Math.round(r.width)}`;
            }),
        ]);
      const closed = await layout();
      await summary.click();
      const panel = form.locator(".signals-menu .menu-panel");
      await panel.waitFor();
      assert.deepEqual(await layout(), closed, "opening Has moved the form's fields");
      // over the form: the panel is what is under its own box's centre
      const box = (await panel.boundingBox())!;
      assert.ok(
        await page.evaluate(
          ([x, y]) => !!document.elementFromPoint(x, y)?.closest(".signals-menu .menu-panel"),
          [box.x + box.width / 2, box.y + box.height / 2],
        ),
        "the Has panel is under another element",
      );
      await form.getByRole("checkbox", { name: "Errors" }).check();
      await form.getByRole("checkbox", { name: "Dead clicks" }).check();
      // what the summary shows: its visible parts with their CSS separators
      const shown = () =>
        summary.evaluate((el) =>
          [...el.querySelectorAll("span")].filter((s) => s.offsetParent !== null).map((s) => {
            const before = getComputedStyle(s, "::before").content;
            return (before.startsWith('"') ? JSON.parse(before) : "") + s.textContent;
          }).join(" ")
        );
      assert.equal(await shown(), "Errors + Dead clicks");
      await form.getByRole("checkbox", { name: "Failed requests" }).check();
      assert.equal(await shown(), "Errors + Dead clicks + Failed requests");
      await form.getByRole("checkbox", { name: "Failed requests" }).uncheck();
      assert.equal(
        await form.getByRole("group", { name: "Sessions with all ticked" }).count(),
        1,
      );
      for (const button of ["Apply", "Reset"]) {
        const control = form.getByRole(button === "Apply" ? "button" : "link", { name: button })
          .or(form.getByRole("button", { name: button }));
        const box = (await control.first().boundingBox())!;
        const onTop = await page.evaluate(
          ([x, y]) => document.elementFromPoint(x, y)?.textContent?.trim(),
          [box.x + box.width / 2, box.y + box.height / 2],
        );
        assert.equal(onTop, button, `${button} is covered`);
      }
      await page.screenshot({ path: await artifactPath("triage-has-menu.png") });
    },
  );

  await t.step("the KPI cards follow a delete", async () => {
    await page.goto(`${server.url}/sessions`);
    await hydrated(page);
    const total = page.getByTestId("kpi-total");
    const before = Number(await total.innerText());
    const row = page.locator("tbody tr[data-session]").first();
    await row.getByRole("button", { name: "Delete" }).click();
    await row.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForFunction(
      (n) => document.querySelector("[data-testid=kpi-total]")?.textContent === String(n),
      before - 1,
    );
    await page.screenshot({ path: await artifactPath("triage-kpis-after-delete.png") });
  });

  await t.step("the insights legend says the range's totals, never --", async () => {
    await page.goto(`${server.url}/insights`);
    await page.locator(".u-legend").waitFor();
    const legend = await page.locator(".u-legend").innerText();
    assert.ok(!legend.includes("--"), legend);
    assert.match(legend, /Errors\s*0 in range/);
    await page.screenshot({ path: await artifactPath("triage-insights-legend.png") });
  });

  await t.step("a second code within 60 s says when another can go", async () => {
    const visitor = await browser.newPage();
    await visitor.goto(`${server.url}/signin`);
    await hydrated(visitor);
    await visitor.getByLabel("Email address").fill("ada@example.test");
    await visitor.getByRole("button", { name: "Email me a code" }).click();
    await visitor.getByRole("button", { name: "Use another email" }).click();
    await visitor.getByLabel("Email address").fill("ada@example.test");
    await visitor.getByRole("button", { name: "Email me a code" }).click();
    await visitor.getByText(/A code was sent recently\. You can ask for another in \d+ s\./)
      .waitFor();
    await visitor.screenshot({ path: await artifactPath("triage-second-code.png") });
    await visitor.close();
  });

  await t.step("every page links a favicon, served as SVG", async () => {
    const href = await page.locator("link[rel=icon]").getAttribute("href");
    const response = await page.request.get(`${server.url}${href}`);
    assert.equal(response.status(), 200);
    assert.equal(response.headers()["content-type"], "image/svg+xml");
    assert.match(await response.text(), /^<svg/);
  });
  await context.close();
});
