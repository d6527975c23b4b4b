// One time for a moment (docs/decisions.md "Replay"): on a recording with an idle gap of 1 min 5 s, which
// the seek bar shows as a 5 s band, the player's clock, the bar's hover label, the slider's arrow
// keys and the ±5 s buttons, a comment, `?t=` and a public link's window all speak the recording's
// real offset: a link for 1:30–1:50 plays 1:30 to 1:50.
import assert from "node:assert/strict";
import { EventType, IncrementalSource } from "@rrweb/types";
import type { Page } from "playwright-core";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { METADATA, postIngest, type TestEvent } from "@/tests/helpers/ingest.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { metaEvent, pageSnapshot, textNode } from "@/tests/helpers/recording_fixture.ts";
import { sharesWorld } from "@/tests/helpers/shares_world.ts";
import { T0 } from "@/tests/helpers/times.ts";

/** Idle from 0:20 to 1:25 (65 s): the bar shows it as 5 s, so real 1:30 is at 0:30 on the bar. */
const GAP = { start: 20_000, end: 85_000 };
const END = 130_000;
const display = (real: number) =>
  real <= GAP.start
    ? real
    : real >= GAP.end
    ? real - (GAP.end - GAP.start) + 5_000
    : GAP.start + (real - GAP.start) * 5_000 / (GAP.end - GAP.start);

/** A page whose body text says `At <s> s`, changed every second but in the gap. */
function events(): TestEvent[] {
  const list: TestEvent[] = [metaEvent(T0), pageSnapshot(T0, [textNode(4, "At 0 s")])];
  for (let ms = 1_000; ms <= END; ms += 1_000) {
    if (ms > GAP.start && ms < GAP.end) continue;
    const texts = [{ id: 4, value: `At ${ms / 1000} s` }];
    list.push({
      type: EventType.IncrementalSnapshot,
      data: { source: IncrementalSource.Mutation, texts, attributes: [], removes: [], adds: [] },
      timestamp: T0 + ms,
    });
  }
  return list;
}

const settledAt = (page: Page, at: number) =>
  page.locator(`.replay-player[data-now='${at}'][data-seeking='false']`).waitFor();
const clockNow = (page: Page) => page.getByTestId("clock-now").textContent();
const frameText = (page: Page) =>
  page.locator(".replay-root iframe").evaluate((f: HTMLIFrameElement) =>
    (f.contentDocument?.body?.innerText ?? "").trim()
  );

Deno.test("replay e2e: the clock, the bar, a comment, ?t= and a link's window speak real offsets", async (t) => {
  await using server = await startPagesServer();
  const w = await sharesWorld(server.t, server.url);
  const externalId = crypto.randomUUID();
  const posted = await postIngest(server.t.app, {
    sessionId: externalId,
    events: events(),
    metadata: METADATA,
  }, { key: w.project.key });
  assert.equal(posted.status, 204);
  const { id: sessionId } = await w.db.selectFrom("sessions").select("id")
    .where("external_id", "=", externalId).executeTakeFirstOrThrow();
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 860 },
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const [name, value] = w.owner.cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const slider = page.getByRole("slider", { name: "Seek" });

    await t.step("opened at ?t=5000, ArrowRight on the slider moves 5 s of real time", async () => {
      await page.goto(`${server.url}/replays/${sessionId}?t=5000`);
      await page.locator(".replay-player[data-ready='true']").waitFor();
      await page.locator(".replay-progress").waitFor({ state: "detached" });
      await settledAt(page, 5_000);
      assert.equal(await clockNow(page), "0:05");
      await slider.focus();
      await slider.press("ArrowRight");
      await settledAt(page, 10_000);
      assert.equal(await slider.getAttribute("aria-valuetext"), "0:10 of 2:10");
      await slider.press("Shift+ArrowLeft");
      await settledAt(page, 9_000);
      await slider.press("ArrowLeft");
      await settledAt(page, 4_000);
      await slider.press("ArrowLeft");
      await settledAt(page, 0);
    });

    await t.step("±5 s move 5 s of real time into and out of the idle stretch", async () => {
      await slider.fill(String(display(18_000)));
      await settledAt(page, 18_000);
      await page.getByRole("button", { name: "Forward 5 seconds" }).click();
      await settledAt(page, 23_000);
      assert.equal(await clockNow(page), "0:23");
      await slider.fill(String(display(87_000)));
      await settledAt(page, 87_000);
      await page.getByRole("button", { name: "Back 5 seconds" }).click();
      await settledAt(page, 82_000);
      assert.equal(await clockNow(page), "1:22");
      await slider.press("ArrowRight");
      await settledAt(page, 87_000);
      await slider.press("ArrowLeft");
      await settledAt(page, 82_000);
    });

    await t.step(
      "the clock and the hover label read real time; the gap is a labelled band",
      async () => {
        await slider.fill(String(display(90_000)));
        await settledAt(page, 90_000);
        assert.equal(await clockNow(page), "1:30");
        assert.equal(await page.getByTestId("clock-total").textContent(), "2:10");
        assert.equal(await slider.getAttribute("aria-valuetext"), "1:30 of 2:10");
        assert.match(await frameText(page), /At 90 s/);
        const band = page.getByRole("img", { name: "Idle 1 min 5 s skipped" });
        const bar = (await slider.boundingBox())!;
        const box = (await band.boundingBox())!;
        // 5 s of the bar's 70 s, from 0:20 of it.
        assert.ok(
          Math.abs(box.width - bar.width * 5 / 70) < 2,
          `band ${box.width} of ${bar.width}`,
        );
        assert.ok(Math.abs(box.x - bar.x - bar.width * 20 / 70) < 2, `band at ${box.x}`);
        const hover = page.getByTestId("seek-hover");
        await page.mouse.move(bar.x + bar.width * display(90_500) / 70_000, bar.y + bar.height / 2);
        assert.equal(await hover.locator(".seek-hover-time").textContent(), "1:30");
        await page.mouse.move(box.x + box.width / 2, bar.y + bar.height / 2);
        assert.match(await hover.textContent() ?? "", /^0:5\d\s*Idle 1 min 5 s skipped$/);
        await page.screenshot({ path: await artifactPath("moments-band-1280.png") });
        await page.setViewportSize({ width: 1440, height: 900 });
        const wide = (await slider.boundingBox())!;
        await page.mouse.move(wide.x + wide.width * 22.5 / 70, wide.y + wide.height / 2);
        await page.screenshot({ path: await artifactPath("moments-band-1440.png") });
        await page.mouse.move(0, 0);
        await page.getByRole("switch", { name: "Skip idle" }).uncheck();
        await page.getByRole("img", { name: "Idle 1 min 5 s played in 5 s" }).waitFor();
        await page.getByRole("switch", { name: "Skip idle" }).check();
        await page.setViewportSize({ width: 1280, height: 860 });
      },
    );

    await t.step("a comment at the moment shown says 1:30, and its link opens there", async () => {
      await page.getByLabel("Comment on the moment shown").fill("Total recalculated");
      await page.getByRole("button", { name: "Comment at the current moment" }).click();
      const comment = page.locator(".comment[data-offset='90000']");
      await comment.waitFor();
      assert.equal(await comment.locator(".comment-moment").textContent(), "1:30");
      const row = page.locator(".history-row[data-kind='comment'][data-start='90000']");
      assert.equal(await row.getByTestId("row-start").textContent(), "1:30");
      await page.getByRole("button", { name: "Copy link at this moment" }).click();
      await page.getByText("Copied to the clipboard.").waitFor();
      const link = new URL(await page.evaluate(() => navigator.clipboard.readText()));
      assert.equal(link.searchParams.get("t"), "90000");
      await page.goto(link.href);
      await page.locator(".replay-player[data-ready='true']").waitFor();
      await settledAt(page, 90_000);
      assert.equal(await clockNow(page), "1:30");
      assert.match(await frameText(page), /At 90 s/);
    });

    let url = "";
    await t.step("a link made for 1:30–1:50 is listed so", async () => {
      await page.locator("fresh-island[data-hydrated='true'] .share-button").click();
      const dialog = page.getByRole("dialog", { name: "Share this replay" });
      await dialog.getByLabel("From").fill("1:30");
      await dialog.getByLabel("To").fill("1:50");
      await dialog.getByRole("button", { name: "Create link" }).click();
      url = await dialog.locator("#share-url").inputValue();
      await dialog.locator(".share-list tbody tr").first().waitFor();
      assert.match(
        await dialog.locator(".share-list tbody tr").first().textContent() ?? "",
        /1:30–1:50/,
      );
    });

    await t.step("signed out, the link plays 1:30 to 1:50 on the player's clock", async () => {
      const visitor = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const shared = await visitor.newPage();
      shared.on("pageerror", (e) => errors.push(e.message));
      await shared.goto(url);
      await shared.locator(".replay-player[data-ready='true']").waitFor();
      await shared.locator(".replay-progress").waitFor({ state: "detached" });
      assert.equal(
        await shared.getByTestId("share-window").textContent(),
        "1:30–1:50 of a recorded session",
      );
      assert.equal(await clockNow(shared), "1:30");
      assert.equal(await shared.getByTestId("clock-total").textContent(), "1:50");
      assert.equal(await shared.locator("[data-testid=row-start]").first().textContent(), "1:30");
      const seek = shared.getByRole("slider", { name: "Seek" });
      await seek.fill("15000");
      await settledAt(shared, 15_000);
      assert.equal(await clockNow(shared), "1:45");
      assert.match(await frameText(shared), /At 105 s/);
      await shared.mouse.move(0, 0);
      await shared.screenshot({ path: await artifactPath("moments-share-1280.png") });
      await seek.fill("20000");
      await settledAt(shared, 20_000);
      assert.equal(await clockNow(shared), "1:50");
      await visitor.close();
    });
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
