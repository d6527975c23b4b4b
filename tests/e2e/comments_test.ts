// Comments in Chromium: a comment at 42,000 ms is a History row and a seek bar tick,
// and clicking it (or its moment in the thread) shows exactly that millisecond; markup in a
// comment shows as text and runs nothing, http(s) addresses become links; a comment written at a
// moment appears at once; `?t=…&comment=…` opens the replay at the comment with it shown.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { sharesWorld } from "@/tests/helpers/shares_world.ts";

const XSS = `<img src=x onerror="document.title='pwned'"> broken, see https://bugs.test/1?a=b&c=d.`;

const settledAt = (page: Page, at: number) =>
  page.locator(`.replay-player[data-now='${at}'][data-seeking='false']`).waitFor();

Deno.test("comments e2e: a comment at 42,000 ms seeks there exactly, and shows its markup as text", async (t) => {
  await using server = await startPagesServer();
  const w = await sharesWorld(server.t, server.url);
  const viewer = await w.member("VIEWER");
  const made = await w.api("POST", `/api/sessions/${w.sessionId}/comments`, viewer.cookie, {
    offsetMs: 42_000,
    text: XSS,
  });
  assert.equal(made.status, 201);
  const comment = await made.json();
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const [name, value] = viewer.cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      d.dismiss();
    });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`${server.url}/replays/${w.sessionId}`);
    await page.locator(".replay-player[data-ready='true']").waitFor();
    await page.locator(".replay-progress").waitFor({ state: "detached" });

    await t.step(
      "it is a History row and a seek bar tick; the row seeks to 42,000 ms exactly",
      async () => {
        const row = page.locator(".history-row[data-kind='comment']");
        assert.equal(await row.count(), 1);
        assert.equal(await row.getAttribute("data-start"), "42000");
        assert.equal(await page.locator(".seek-tick[data-kind='comment']").count(), 1);
        await row.click();
        await settledAt(page, 42_000);
        assert.equal(await page.locator(".replay-player").getAttribute("data-now"), "42000");
      },
    );

    await t.step("a click on its seek bar tick seeks there exactly, not to the pixel", async () => {
      await page.getByRole("slider", { name: "Seek" }).fill("5000");
      await settledAt(page, 5_000);
      const box = (await page.locator(".seek-tick[data-kind='comment']").boundingBox())!;
      // Two pixels off the tick's centre: within its reach, a pixel's worth of ms away from it.
      await page.mouse.click(box.x + box.width / 2 + 2, box.y + box.height / 2);
      await settledAt(page, 42_000);
    });

    await t.step("its moment in the thread seeks there too", async () => {
      await page.getByRole("slider", { name: "Seek" }).fill("5000");
      await settledAt(page, 5_000);
      await page.locator(`#comment-${comment.id} .comment-moment`).click();
      await settledAt(page, 42_000);
    });

    await t.step("markup shows as text; only the http(s) address is a link", async () => {
      const text = page.locator(`#comment-${comment.id} .comment-text`);
      assert.equal(await text.textContent(), XSS);
      assert.equal(await page.locator(".comment-thread img").count(), 0);
      const links = text.locator("a");
      assert.equal(await links.count(), 1);
      assert.equal(await links.getAttribute("href"), "https://bugs.test/1?a=b&c=d");
      assert.equal(await links.getAttribute("rel"), "noopener noreferrer nofollow ugc");
      assert.notEqual(await page.title(), "pwned");
      assert.deepEqual(dialogs, []);
    });

    await t.step(
      "a comment written at a moment appears in the thread, History and seek bar at once",
      async () => {
        await page.getByRole("slider", { name: "Seek" }).fill("61000");
        await settledAt(page, 61_000);
        await page.getByLabel("Comment on the moment shown").fill("The total jumps here");
        await page.getByRole("button", { name: "Comment at the current moment" }).click();
        await page.locator(".comment[data-offset='61000']").waitFor();
        await page.locator(".history-row[data-kind='comment'][data-start='61000']").waitFor();
        assert.equal(await page.locator(".seek-tick[data-kind='comment']").count(), 2);
        const stored = await w.db.selectFrom("session_comments").select(["offset_ms", "text"])
          .where("offset_ms", "=", 61_000).executeTakeFirstOrThrow();
        assert.equal(stored.text, "The total jumps here");
        await page.locator(".comment-thread").screenshot({
          path: await artifactPath("comment-thread.png"),
        });
        await page.screenshot({ path: await artifactPath("comments-page.png"), fullPage: true });
      },
    );

    await t.step(
      "the sessions page's comment filters find the session and leave the other",
      async () => {
        const rows = page.locator("tr[data-session]");
        const listed = async () =>
          (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-session"))))
            .sort();
        await page.goto(`${server.url}/sessions`);
        await page.getByLabel("Comments").selectOption("true");
        await page.getByRole("button", { name: "Apply" }).click();
        await page.waitForURL(/hasComments=true/);
        assert.deepEqual(await listed(), [w.sessionId]);
        await page.getByLabel("Comments").selectOption("false");
        await page.getByRole("button", { name: "Apply" }).click();
        await page.waitForURL(/hasComments=false/);
        assert.deepEqual(await listed(), [w.otherSessionId]);
        await page.getByLabel("Comments").selectOption("");
        await page.getByLabel("Comment says").fill("BROKEN, see");
        await page.getByRole("button", { name: "Apply" }).click();
        await page.waitForURL(/comment=BROKEN/);
        assert.deepEqual(await listed(), [w.sessionId]);
        await page.screenshot({ path: await artifactPath("sessions-comment-filter.png") });
        await page.getByLabel("Comment says").fill("nowhere in a comment");
        await page.getByRole("button", { name: "Apply" }).click();
        await page.waitForURL(/comment=nowhere/);
        assert.deepEqual(await listed(), []);
      },
    );

    await t.step("a link to a comment opens the replay at it, with the comment shown", async () => {
      await page.goto(`${server.url}/replays/${w.sessionId}?t=42000&comment=${comment.id}`);
      await page.locator(".replay-player[data-ready='true']").waitFor();
      await settledAt(page, 42_000);
      const shown = page.locator(`#comment-${comment.id}`);
      assert.equal(await shown.getAttribute("aria-current"), "true");
      assert.ok(await shown.isVisible());
      assert.deepEqual(errors, []);
    });
  } finally {
    await browser.close();
  }
});
