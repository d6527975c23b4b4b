// Browser test of a tracked user's erasure: the user page's "Erase" confirmation
// names the count of sessions (screenshot), confirming erases the user and their sessions and lands
// on Users with a notice; the export is a link to the API's attachment.
import assert from "node:assert/strict";
import { artifactPath, launchChromium, signedInPage } from "@/tests/helpers/browser.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { ADA_SESSIONS, seedUserPage } from "@/tests/helpers/user_page_seed.ts";

Deno.test("erase e2e: the confirmation names the sessions; confirming erases the user and them", async () => {
  await using server = await startPagesServer();
  const owner = await signedInUser(server.t);
  const { user } = await seedUserPage(server.t.db.kysely, owner.organizationId);
  const browser = await launchChromium();
  try {
    const { page, errors } = await signedInPage(browser, server.url, owner.cookie);
    await page.goto(`${server.url}/users/${user.id}`);
    const count = ADA_SESSIONS.length;
    assert.equal(
      await page.getByRole("link", { name: "Export data" }).getAttribute("href"),
      `/api/tracked-users/${user.id}/export`,
    );
    const erase = page.locator("[data-testid=erase-user]");
    await erase.locator("summary").click();
    const confirm = erase.getByRole("button", { name: `Yes, erase ${count} sessions` });
    await confirm.waitFor({ timeout: 5_000 });
    assert.match(await erase.innerText(), new RegExp(`and ${count} sessions are erased`));
    await erase.scrollIntoViewIfNeeded();
    await page.screenshot({ path: await artifactPath("erase_user_confirmation.png") });
    await confirm.click();
    await page.waitForURL(/\/users\?done=user-erased$/);
    await page.getByText("The user and all their sessions were erased.").waitFor();
    const db = server.t.db.kysely;
    assert.equal(
      (await db.selectFrom("tracked_users").select("id").where("id", "=", user.id).execute())
        .length,
      0,
    );
    assert.equal(
      (await db.selectFrom("sessions").select("id").where("tracked_user_id", "=", user.id)
        .execute()).length,
      0,
    );
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
