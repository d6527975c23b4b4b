// Browser tests of the dashboard pages on a real server: sign-in by email code (the code read from
// mail on a real SMTP server), creating a project and copying its key, and each role's controls.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchChromium } from "../helpers/browser.ts";
import { insertMembership } from "../helpers/factories.ts";
import { startPagesServer } from "../helpers/pages.ts";
import { codeIn, startTestSmtp, type TestSmtp } from "../helpers/smtp.ts";

/** Signs in through the page as a visitor of `path` would, and lands back on it. */
async function signIn(page: Page, origin: string, smtp: TestSmtp, email: string, path: string) {
  await page.goto(`${origin}${path}`);
  assert.equal(new URL(page.url()).pathname, "/signin");
  assert.equal(new URL(page.url()).searchParams.get("next"), path);
  await page.waitForSelector("fresh-island[data-hydrated='true']");
  await page.getByLabel("Email address").fill(email);
  await page.getByRole("button", { name: "Email me a code" }).click();
  const code = codeIn(await smtp.next());
  await page.getByLabel(/Code sent to/).fill(code);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${origin}${path}`);
}

Deno.test("dashboard e2e: sign in by email code, back to the page asked for, sign out", async () => {
  await using smtp = await startTestSmtp();
  await using server = await startPagesServer(smtp.env);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));

    await page.goto(`${server.url}/settings/profile`);
    await page.waitForSelector("fresh-island[data-hydrated='true']");
    await page.getByLabel("Email address").fill("ada@example.test");
    await page.getByRole("button", { name: "Email me a code" }).click();
    const mail = await smtp.next();
    assert.deepEqual(mail.to, ["ada@example.test"]);
    // The code step, with the resend button held back by the cooldown.
    const resend = page.getByRole("button", { name: /Resend code in \d+ s/ });
    await resend.waitFor();
    assert.equal(await resend.isDisabled(), true);

    await page.getByLabel(/Code sent to/).fill("000000");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("status").filter({ hasText: /code/i }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/signin");

    await page.getByLabel(/Code sent to/).fill(codeIn(mail));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${server.url}/settings/profile`);
    assert.equal(await page.locator("h1").textContent(), "Profile");
    assert.match(await page.locator("main").textContent() ?? "", /Signed in as ada@example\.test/);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${server.url}/signin`);
    await page.goto(`${server.url}/settings/organization`);
    assert.equal(new URL(page.url()).pathname, "/signin");
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});

Deno.test("dashboard e2e: create a project, see its snippet, show and copy its key", async () => {
  await using smtp = await startTestSmtp();
  await using server = await startPagesServer(smtp.env);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const page = await context.newPage();
    await signIn(page, server.url, smtp, "owner@example.test", "/settings/organization");

    await page.getByLabel("New project").fill("Storefront");
    await page.getByRole("button", { name: "Create project" }).click();
    await page.waitForURL(/\/projects\/[^/]+\/setup$/);
    const db = server.t.db.kysely;
    const project = await db.selectFrom("projects").selectAll().where("name", "=", "Storefront")
      .executeTakeFirstOrThrow();
    const snippet = await page.getByTestId("sdk-snippet").textContent();
    assert.ok(snippet?.includes(`apiKey: "${project.key}"`));
    assert.ok(snippet?.includes(`${server.url}/sdk/v1/playhead.js`));

    await page.getByRole("link", { name: "All projects" }).click();
    const card = page.locator(`[data-project="Storefront"]`);
    await card.locator("fresh-island[data-hydrated='true']").waitFor();
    const key = card.getByTestId("project-key");
    assert.match(await key.textContent() ?? "", /^sp_[0-9a-f]{4}•{24}[0-9a-f]{4}$/);
    await card.getByRole("button", { name: "Show" }).click();
    await card.getByRole("button", { name: "Hide" }).waitFor();
    assert.equal(await key.textContent(), project.key);

    await card.getByRole("button", { name: "Copy" }).click();
    await card.getByText("Copied to the clipboard.").waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), project.key);
    await context.close();
  } finally {
    await browser.close();
  }
});

Deno.test("dashboard e2e: a VIEWER sees the roster and masked keys but no controls", async () => {
  await using smtp = await startTestSmtp();
  await using server = await startPagesServer(smtp.env);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const owner = await browser.newPage();
    await signIn(owner, server.url, smtp, "owner@example.test", "/settings/organization");
    await owner.getByLabel("New project").fill("Docs");
    await owner.getByRole("button", { name: "Create project" }).click();
    await owner.waitForURL(/\/setup$/);

    // The viewer signs in (gets a workspace of their own), then joins the owner's organisation.
    await signIn(page, server.url, smtp, "viewer@example.test", "/settings/profile");
    const db = server.t.db.kysely;
    const user = await db.selectFrom("users").selectAll().where("email", "=", "viewer@example.test")
      .executeTakeFirstOrThrow();
    const org = await db.selectFrom("organizations").select("id").where("name", "like", "owner%")
      .executeTakeFirstOrThrow();
    await insertMembership(db, org.id, user.id, "VIEWER");
    await page.goto(`${server.url}/settings/organization`);
    await page.getByLabel("Switch to").selectOption(org.id);
    await page.getByRole("button", { name: "Switch" }).click();
    await page.waitForURL(/done=switched/);

    assert.equal(await page.locator(".badge").first().textContent(), "VIEWER");
    assert.match(await page.locator("table").textContent() ?? "", /owner@example\.test/);
    const card = page.locator(`[data-project="Docs"]`);
    assert.match(await card.locator("code").textContent() ?? "", /•{24}/);
    for (const name of ["Show", "Copy", "Rename", "Save role", "Create project"]) {
      assert.equal(await page.getByRole("button", { name, exact: true }).count(), 0, name);
    }
    assert.equal(await page.getByText("Regenerate key").count(), 0);
    assert.equal(await page.getByRole("button", { name: "Leave" }).count(), 1);
    assert.equal(await page.getByRole("heading", { name: "Delete organization" }).count(), 0);
  } finally {
    await browser.close();
  }
});
