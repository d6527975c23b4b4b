// Browser test of saved searches on the sessions page: a VIEWER sees the organization's saved
// search with what started since it was made ("2 new"), saves the page's filters under a name
// (post/redirect/get), and opening one through the list lands on its sessions page and marks it
// seen. Screenshots of the section and the page. Plus the form without JS: an empty name is the
// page again with a 400 naming the field, and nothing saved.
import assert from "node:assert/strict";
import { artifactPath, launchChromium, signedInPage } from "@/tests/helpers/browser.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { page as pageRequest, startPagesServer } from "@/tests/helpers/pages.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";

const MINUTE = 60_000;

Deno.test("saved searches e2e: the sessions page lists them with their new counts, saves its filters, and opening one marks it seen", async () => {
  await using server = await startPagesServer();
  const db = server.t.db.kysely;
  const owner = await signedInUser(server.t);
  const viewer = await signedInUser(server.t, {
    role: "VIEWER",
    organizationId: owner.organizationId,
  });
  const shop = await insertProject(db, { organizationId: owner.organizationId, name: "Shop" });
  const now = Date.now();
  for (const minutes of [90, 20, 5]) {
    const at = new Date(now - minutes * MINUTE);
    await insertSession(db, shop, { createdAt: at, url: "https://shop.test/checkout" });
  }
  await db.insertInto("saved_searches").values({
    id: "saved-checkout",
    organization_id: owner.organizationId,
    name: "Checkout visits",
    query: `projectIds=${shop.id}`,
    author_id: owner.user.id,
    created_at: new Date(now - 60 * MINUTE),
  }).execute();

  const refused = await pageRequest(server.t, "/sessions?range=7d", {
    cookie: viewer.cookie,
    form: { intent: "save-search", name: "   " },
    origin: server.url,
  });
  assert.equal(refused.status, 400);
  assert.match(await refused.text(), /name: /);

  const browser = await launchChromium();
  try {
    const { page, errors } = await signedInPage(browser, server.url, viewer.cookie);

    await page.goto(`${server.url}/sessions?range=7d&sort=duration`);
    const saved = page.getByTestId("saved-search");
    assert.deepEqual(await saved.allInnerTexts(), ["Checkout visits\n2 new"]);
    await page.getByLabel("Save this search").fill("Longest this week");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await page.waitForURL(/\/sessions\?range=7d&sort=duration$/);
    await saved.nth(1).waitFor();
    assert.deepEqual(await saved.allInnerTexts(), ["Longest this week", "Checkout visits\n2 new"]);
    const section = page.getByRole("region", { name: "Saved searches" });
    await section.screenshot({ path: await artifactPath("saved_searches_section.png") });
    await page.screenshot({ path: await artifactPath("saved_searches_page.png") });

    await saved.nth(1).click();
    await page.waitForURL(`${server.url}/sessions?projectIds=${shop.id}`);
    assert.deepEqual(await saved.allInnerTexts(), ["Longest this week", "Checkout visits"]);
    const stored = await db.selectFrom("saved_searches").select(["name", "query", "author_id"])
      .where("name", "=", "Longest this week").executeTakeFirstOrThrow();
    assert.deepEqual(stored, {
      name: "Longest this week",
      query: "range=7d&sort=duration",
      author_id: viewer.user.id,
    });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
