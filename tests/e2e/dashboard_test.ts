// Browser tests of the dashboard pages on a real server: sign-in by email code (the code read from
// mail on a real SMTP server), creating a project and copying its key, inviting a second user who
// accepts, and the controls a VIEWER and an ADMIN are (not) given.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { launchChromium } from "@/tests/helpers/browser.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertMembership, insertProject, insertUser } from "@/tests/helpers/factories.ts";
import { inviteLinkIn } from "@/tests/helpers/invite_mail.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { codeIn, startTestSmtp, type TestSmtp } from "@/tests/helpers/smtp.ts";

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

Deno.test("dashboard e2e: an owner invites a second user, who accepts and sees VIEWER controls", async () => {
  await using smtp = await startTestSmtp();
  await using server = await startPagesServer(smtp.env);
  const browser = await launchChromium();
  try {
    const owner = await (await browser.newContext()).newPage();
    await signIn(owner, server.url, smtp, "owner@example.test", "/settings/organization");
    await owner.getByLabel("New project").fill("Docs");
    await owner.getByRole("button", { name: "Create project" }).click();
    await owner.waitForURL(/\/setup$/);
    await owner.goto(`${server.url}/settings/organization`);
    await owner.getByLabel("Email", { exact: true }).fill("second@example.test");
    await owner.getByLabel("Role", { exact: true }).selectOption("VIEWER");
    await owner.getByRole("button", { name: "Send invite" }).click();
    await owner.waitForURL(/done=invited/);
    assert.match(
      await owner.locator(`[data-invite="second@example.test"]`).textContent() ?? "",
      /PENDING/,
    );
    const mail = await smtp.next();
    assert.deepEqual(mail.to, ["second@example.test"]);
    const link = inviteLinkIn(mail);
    assert.equal(link, `${server.url}/invites`);

    // The invitee follows the link, signs in, and comes back to accept.
    const second = await (await browser.newContext()).newPage();
    await signIn(second, server.url, smtp, "second@example.test", "/invites");
    await second.getByRole("button", { name: "Accept owner's workspace" }).click();
    await second.waitForURL(`${server.url}/settings/organization?done=joined`);
    assert.equal(await second.locator("h1").textContent(), "owner's workspace");
    assert.equal(await second.locator("main .badge").first().textContent(), "VIEWER");

    // VIEWER: the roster and masked keys, no controls but leaving.
    assert.match(await second.locator("table").first().textContent() ?? "", /owner@example\.test/);
    const card = second.locator(`[data-project="Docs"]`);
    assert.match(await card.locator("code").textContent() ?? "", /•{24}/);
    for (const name of ["Show", "Copy", "Rename", "Save role", "Create project", "Send invite"]) {
      assert.equal(await second.getByRole("button", { name, exact: true }).count(), 0, name);
    }
    assert.equal(await second.getByText("Regenerate key").count(), 0);
    assert.equal(await second.getByRole("button", { name: "Leave" }).count(), 1);
    assert.equal(await second.getByRole("heading", { name: "Delete organization" }).count(), 0);

    // The owner sees the new member with a role control, and no open invite any more.
    await owner.reload();
    const row = owner.locator(`[data-member="second@example.test"]`);
    assert.equal(await row.getByRole("combobox").inputValue(), "VIEWER");
    assert.equal(await owner.locator(`[data-invite="second@example.test"]`).count(), 0);
  } finally {
    await browser.close();
  }
});

Deno.test("dashboard e2e: an ADMIN gets rename and invite controls, never key, role or deletion controls", async () => {
  await using server = await startPagesServer();
  const admin = await signedInUser(server.t, { role: "ADMIN" });
  await insertProject(server.t.db.kysely, { organizationId: admin.organizationId, name: "Shop" });
  const owner = await insertUser(server.t.db.kysely, "owner@example.test");
  await insertMembership(server.t.db.kysely, admin.organizationId, owner.id, "OWNER");
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const [name, value] = admin.cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto(`${server.url}/settings/organization`);
    assert.equal(await page.locator("main .badge").first().textContent(), "ADMIN");

    for (const control of ["Rename", "Send invite"]) {
      assert.ok(
        await page.getByRole("button", { name: control, exact: true }).count() > 0,
        control,
      );
    }
    for (const control of ["Show", "Copy", "Save role", "Remove", "Create project"]) {
      assert.equal(
        await page.getByRole("button", { name: control, exact: true }).count(),
        0,
        control,
      );
    }
    assert.equal(await page.getByText("Regenerate key").count(), 0);
    assert.equal(await page.getByRole("heading", { name: "Delete organization" }).count(), 0);
    assert.match(await page.locator(`[data-project="Shop"] code`).textContent() ?? "", /•{24}/);
  } finally {
    await browser.close();
  }
});
