// Browser test of the audit log page (Settings → Organization → Audit log): an OWNER switches on
// "audit replay views" (its own row appears, with their email and address), filters by action and
// pages to older entries; a screenshot of the table.
import assert from "node:assert/strict";
import { artifactPath, launchChromium, signedInPage } from "@/tests/helpers/browser.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { newRowId } from "@/core/ids.ts";

Deno.test("audit e2e: the switch is audited, the table filters by action and pages on", async () => {
  await using server = await startPagesServer();
  const owner = await signedInUser(server.t);
  const db = server.t.db.kysely;
  const at = Date.now() - 3_600_000;
  // 60 older rows: every fourth a share.create, the rest project updates.
  await db.insertInto("audit_log").values(Array.from({ length: 60 }, (_, i) => ({
    id: newRowId(),
    organization_id: owner.organizationId,
    action: i % 4 ? "project.update" : "share.create",
    actor_id: owner.user.id,
    actor_email: owner.user.email,
    target_type: i % 4 ? "project" : "share",
    target_id: newRowId(),
    details: JSON.stringify(i % 4 ? { retentionDays: 30 } : { expiresInHours: 168 }),
    client_address: "198.51.100.23",
    created_at: new Date(at - i * 60_000),
  }))).execute();
  const browser = await launchChromium();
  try {
    const { page, errors } = await signedInPage(browser, server.url, owner.cookie);
    await page.goto(`${server.url}/settings/organization`);
    await page.getByRole("link", { name: "Audit log" }).click();
    await page.waitForURL(/\/settings\/organization\/audit$/);
    await page.getByLabel(/Audit replay views/).check();
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByText("Replay views are audited from now on.").waitFor();
    const first = page.locator("[data-testid=audit-table] tbody tr").first();
    assert.equal(await first.getAttribute("data-action"), "organization.update");
    const cell = (name: string) => first.locator(`[data-cell=${name}]`).innerText();
    assert.equal(await cell("actor"), owner.user.email);
    assert.equal(await cell("details"), "auditViews: true");
    assert.equal(await cell("address"), "127.0.0.1");
    assert.equal(await cell("target"), `organization ${owner.organizationId}`);
    await page.screenshot({ path: await artifactPath("audit_log.png") });

    await page.getByLabel("Action").selectOption("share.create");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/\?action=share\.create$/);
    const actions = await page.locator("[data-testid=audit-table] tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-action")));
    assert.deepEqual(actions, Array(15).fill("share.create"));

    await page.goto(`${server.url}/settings/organization/audit`);
    await page.getByRole("link", { name: "Older entries" }).click();
    await page.waitForURL(/cursor=/);
    assert.equal(await page.locator("[data-testid=audit-table] tbody tr").count(), 11);
    assert.equal(await page.getByRole("link", { name: "Older entries" }).count(), 0);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
