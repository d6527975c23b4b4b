// Browser test of a project's settings page (docs/decisions.md "Capture control", "Network
// capture"): an ADMIN edits every recording setting and the network settings and sees them saved; a bad value is refused naming its field and changes
// nothing; a VIEWER sees the same settings read-only. Screenshots go to .scratch/e2e/.
import assert from "node:assert/strict";
import type { BrowserContext } from "playwright-core";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { getProjectRecording } from "./recording_settings_page_read.ts";

Deno.test("project settings page: an ADMIN edits the recording settings, a VIEWER reads them", async (t) => {
  await using server = await startPagesServer();
  const db = server.t.db.kysely;
  const admin = await signedInUser(server.t, { role: "ADMIN" });
  const viewer = await signedInUser(server.t, {
    role: "VIEWER",
    organizationId: admin.organizationId,
  });
  const project = await insertProject(db, { organizationId: admin.organizationId, name: "Shop" });
  const path = `${server.url}/projects/${project.id}/settings`;
  const browser = await launchChromium();
  const contexts: BrowserContext[] = [];
  const open = async (cookie: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const [name, value] = cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto(path);
    return page;
  };
  try {
    await t.step("an ADMIN changes every setting and sees them saved", async () => {
      const page = await open(admin.cookie);
      await page.screenshot({ path: await artifactPath("recording-settings-before.png") });
      await page.fill("input[name=samplePercent]", "25");
      await page.fill("input[name=minDurationSeconds]", "5");
      await page.fill("textarea[name=urlBlock]", "/admin/**\n/account/*");
      await page.fill("textarea[name=urlAllow]", "/shop/**");
      await page.check("input[name=trigger_error]");
      await page.check("input[name=trigger_rage_click]");
      await page.fill("input[name=bufferSeconds]", "90");
      await page.click("button[value=save-recording]");
      await page.getByRole("status").waitFor();
      assert.match(await page.getByRole("status").textContent() ?? "", /saved/);
      assert.deepEqual(await getProjectRecording(db, project.id), {
        sampleRate: 0.25,
        minDurationMs: 5_000,
        urlBlock: ["/admin/**", "/account/*"],
        urlAllow: ["/shop/**"],
        triggers: ["error", "rage_click"],
        bufferMs: 90_000,
      });
      // the page shows what is stored
      assert.equal(await page.inputValue("input[name=samplePercent]"), "25");
      assert.equal(await page.inputValue("textarea[name=urlBlock]"), "/admin/**\n/account/*");
      assert.equal(await page.isChecked("input[name=trigger_dead_click]"), false);
      await page.screenshot({
        path: await artifactPath("recording-settings-saved.png"),
        fullPage: true,
      });
    });

    await t.step("a bad value is refused naming its field, and nothing changes", async () => {
      const page = await open(admin.cookie);
      const before = await getProjectRecording(db, project.id);
      // past the browser's own checks, as a hand-made post would be
      await page.evaluate(() =>
        document.querySelector<HTMLFormElement>("form:has(button[value=save-recording])")!
          .noValidate = true
      );
      await page.fill("input[name=samplePercent]", "50");
      await page.fill("input[name=bufferSeconds]", "10");
      await page.click("button[value=save-recording]");
      const alert = page.getByRole("alert");
      await alert.waitFor();
      assert.match(await alert.textContent() ?? "", /bufferMs/);
      assert.deepEqual(await getProjectRecording(db, project.id), before);
      await page.screenshot({ path: await artifactPath("recording-settings-refused.png") });
    });

    await t.step("an ADMIN turns network capture on with headers and body paths", async () => {
      const page = await open(admin.cookie);
      const before = await getProjectRecording(db, project.id);
      await page.check("input[name=enabled]");
      await page.fill("textarea[name=headers]", "content-type\nAuthorization\nx-trace");
      await page.fill("textarea[name=bodyUrls]", "/api/**");
      await page.click("button[value=save-network]");
      await page.getByRole("status").waitFor();
      assert.match(await page.getByRole("status").textContent() ?? "", /Network settings saved/);
      const row = await db.selectFrom("projects")
        .select(["network_enabled", "network_headers", "network_body_urls", "network_vitals"])
        .where("id", "=", project.id).executeTakeFirstOrThrow();
      assert.deepEqual(row, {
        network_enabled: true,
        network_headers: ["content-type", "authorization", "x-trace"],
        network_body_urls: ["/api/**"],
        network_vitals: true,
      });
      assert.deepEqual(await getProjectRecording(db, project.id), before);
      // the page says a credential header in the list is never kept
      assert.match(await page.textContent("body") ?? "", /Not kept from this list: authorization/);
      await page.screenshot({
        path: await artifactPath("network-settings-saved.png"),
        fullPage: true,
      });
    });

    await t.step("a VIEWER sees the settings read-only", async () => {
      const page = await open(viewer.cookie);
      assert.equal(await page.inputValue("input[name=samplePercent]"), "25");
      assert.equal(await page.isDisabled("input[name=samplePercent]"), true);
      assert.equal(await page.isDisabled("textarea[name=urlAllow]"), true);
      assert.equal(await page.locator("button[value=save-recording]").count(), 0);
      assert.equal(await page.isDisabled("input[name=enabled]"), true);
      assert.equal(await page.locator("button[value=save-network]").count(), 0);
      assert.match(await page.textContent("body") ?? "", /Only admins and owners/);
      await page.screenshot({
        path: await artifactPath("recording-settings-viewer.png"),
        fullPage: true,
      });
    });
  } finally {
    for (const c of contexts) await c.close().catch(() => {});
    await browser.close();
  }
});
