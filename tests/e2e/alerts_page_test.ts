// Browser test of the Alerts page (Settings → Projects → Alerts, docs/decisions.md "Alerts"): an
// OWNER follows "Alert me" on an insights row to the form filled in (signal, grouping and the row's
// group), adds a webhook and creates the rule watching that group; the signing secret shows once
// and the rule is listed with its actions as buttons; screenshots of both pages at 1280 and 1440.
import assert from "node:assert/strict";
import { artifactPath, launchChromium, signedInPage } from "@/tests/helpers/browser.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { sessionWithSignal, startReceiver } from "@/tests/alerts/alerts_world.ts";

Deno.test("alerts e2e: Alert me opens the form filled in; the secret shows once", async () => {
  await using receiver = startReceiver();
  await using server = await startPagesServer({ ALERT_ALLOW_PRIVATE_TARGETS: "true" });
  const owner = await signedInUser(server.t);
  const db = server.t.db.kysely;
  const project = await insertProject(db, { organizationId: owner.organizationId });
  const now = Date.now();
  for (let i = 0; i < 3; i++) {
    await sessionWithSignal(db, project, {
      page: "/checkout",
      kind: "rage_click",
      at: now - 60_000 + i,
      startedAt: now - 120_000,
      selector: "button#pay",
    });
  }
  const browser = await launchChromium();
  try {
    const { page, errors } = await signedInPage(browser, server.url, owner.cookie);
    await page.goto(`${server.url}/insights`);
    await page.screenshot({ path: await artifactPath("alerts_insights.png"), fullPage: true });
    await page.locator("[data-testid=insights-rage_click]").getByRole("link", { name: "Alert me" })
      .click();
    await page.waitForURL(/\/alerts\?signal=rage_click&groupBy=selector/);
    const form = page.locator("[data-testid=alert-rule-form]");
    assert.equal(await form.locator("select[name=signal]").inputValue(), "rage_click");
    assert.equal(await form.locator("select[name=groupBy]").inputValue(), "selector");
    assert.match(await form.locator("input[name=name]").inputValue(), /button#pay/);
    assert.equal(await form.locator("input[name=group]").inputValue(), "button#pay");
    await form.locator("input[name=webhook]").fill(`${receiver.url}/hook`);
    await form.getByRole("button", { name: "Create rule" }).click();
    const secret = page.locator("[data-testid=alert-secret] pre");
    assert.match(await secret.innerText(), /^whsec_/);
    const rows = page.locator("[data-testid=alert-rules] tbody tr");
    assert.equal(await rows.count(), 1);
    assert.match(await rows.first().innerText(), /per selector|on button#pay/);
    const stored = await db.selectFrom("alert_rules").select(["group_by", "group_key"])
      .executeTakeFirstOrThrow();
    assert.deepEqual(stored, { group_by: "selector", group_key: "button#pay" });
    // the row's actions look like the dashboard's buttons, not plain text
    for (const name of ["Test", "New secret"]) {
      const border = await rows.first().getByRole("button", { name }).evaluate((b) =>
        getComputedStyle(b).borderTopStyle + " " + getComputedStyle(b).backgroundColor
      );
      assert.doesNotMatch(border, /none|rgba\(0, 0, 0, 0\)/, `${name}: ${border}`);
    }
    for (const width of [1280, 1440]) {
      await page.setViewportSize({ width, height: 900 });
      await page.screenshot({
        path: await artifactPath(`alerts_page_${width}.png`),
        fullPage: true,
      });
    }
    await page.goto(page.url());
    assert.equal(await page.locator("[data-testid=alert-secret]").count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
