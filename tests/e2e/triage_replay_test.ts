// Browser tests of the replay of a visit recorded by the served SDK: a masked select shows a
// neutral masked value, never a real option that was not chosen; the seek slider's arrow keys
// step 5 s (1 s with Shift); Tab never walks into the replayed page.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { waitFor } from "./sdk_harness.ts";
import { sessionRow } from "./sdk_readback.ts";
import { triageWorld } from "./triage_world.ts";
import { recent } from "@/tests/helpers/times.ts";

type Ph = { ph: { sessionId: string; flush(): Promise<void> } };
const T0 = recent(Date.parse("2026-03-02T10:00:00Z"));

/** The replayed select's shown option, and whether any real one is shown. */
function shownOption(page: Page) {
  return page.locator(".replay-root iframe").evaluate((iframe: HTMLIFrameElement) => {
    const select = iframe.contentDocument!.querySelector("select")!;
    // What a select shows is its option's label (its text, unless it has a label of its own).
    return select.selectedOptions[0]?.label ?? "";
  });
}

Deno.test("triage e2e: replay of a masked select, and the player from the keyboard", async (t) => {
  await using w = await triageWorld();
  w.page(
    "/address",
    `<label>Country <select id="country">
  <option value="NO">Norway</option><option value="DE">Germany</option><option value="SE">Sweden</option>
</select></label>
<button id="a">One</button> <a href="#b">Two</a> <input id="c" placeholder="Three">
<button id="thrower" onclick="payNow()">Pay</button>
<script>function payNow() { throw new Error("Checkout failed for order 5521: " + "x".repeat(150)); }</script>
<p id="tick">0</p>`,
  );
  await using browser = await launchChromium();
  const visit = await browser.newPage();
  await visit.clock.install({ time: T0 });
  await visit.clock.pauseAt(T0 + 1_000);
  await visit.goto(`${w.siteUrl}/address`);
  const externalId = await visit.evaluate(() => (window as unknown as Ph).ph.sessionId);
  await visit.clock.runFor(2_000);
  await visit.selectOption("#country", "DE");
  await visit.click("#thrower");
  // 30 s of a page that changes every second: a timeline for the slider to step through
  for (let s = 1; s <= 30; s++) {
    await visit.evaluate((n) => document.getElementById("tick")!.textContent = String(n), s);
    await visit.clock.runFor(1_000);
  }
  await visit.evaluate(() => (window as unknown as Ph).ph.flush());
  const db = w.server.t.db.kysely;
  const session = await waitFor(
    async () => {
      const row = await sessionRow(db, w.projectId, externalId);
      return row && Number(row.duration) >= 30_000 ? row : null;
    },
    10_000,
    "the recorded visit",
  );

  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  const [name, value] = w.cookie.split("=");
  await context.addCookies([{ name, value, url: w.server.url }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${w.server.url}/replays/${session!.id}`);
  await page.locator(".replay-player[data-ready='true']").waitFor();
  await page.locator(".replay-progress").waitFor({ state: "detached" });
  const slider = page.getByRole("slider", { name: "Seek" });
  const sliderValue = async () => Number(await slider.inputValue());

  await t.step("a masked select shows the masked value, before and after the change", async () => {
    assert.equal(await shownOption(page), "*****");
    await page.getByRole("button", { name: "Forward 5 seconds" }).click();
    await page.locator(".replay-player[data-seeking='false']").waitFor();
    assert.equal(await shownOption(page), "*****");
    const options = await page.locator(".replay-root iframe").evaluate((f: HTMLIFrameElement) =>
      [...f.contentDocument!.querySelectorAll("option")].map((o) => o.label)
    );
    assert.deepEqual(options, ["*****", "Norway", "Germany", "Sweden"]);
    await page.screenshot({ path: await artifactPath("triage-masked-select.png") });
  });

  await t.step("the slider's arrow keys step 5 s, 1 s with Shift", async () => {
    await slider.focus();
    const start = await sliderValue();
    await slider.press("ArrowRight");
    await waitFor(async () => await sliderValue() === start + 5_000, 5_000, "+5 s");
    await slider.press("Shift+ArrowRight");
    await waitFor(async () => await sliderValue() === start + 6_000, 5_000, "+1 s");
    await slider.press("ArrowLeft");
    await waitFor(async () => await sliderValue() === start + 1_000, 5_000, "−5 s");
    assert.match(String(await slider.getAttribute("aria-valuetext")), /^0:0\d of 0:\d\d$/);
  });

  await t.step("Tab from the slider never focuses anything inside the replay", async () => {
    await slider.focus();
    const visited: string[] = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const where = await page.evaluate(() => {
        const active = document.activeElement;
        const frame = document.querySelector<HTMLIFrameElement>(".replay-root iframe");
        const inside = frame?.contentDocument?.hasFocus() ||
          (active !== null && active.closest(".replay-slot") !== null);
        return `${inside ? "INSIDE " : ""}${active?.tagName}:${
          active?.getAttribute("aria-label") ?? active?.textContent?.trim().slice(0, 20)
        }`;
      });
      visited.push(where);
    }
    assert.ok(!visited.some((v) => v.startsWith("INSIDE")), visited.join("\n"));
    assert.ok(visited.some((v) => v.includes("Forward 5 seconds")), visited.join("\n"));
    await page.screenshot({ path: await artifactPath("triage-focus.png") });
  });
  await t.step("History and Console expand an error to its whole message and stack", async () => {
    const history = page.locator(".history .error-evidence");
    await history.locator("summary").click();
    const text = await history.locator("pre").innerText();
    assert.match(text, /^Uncaught Error: Checkout failed for order 5521: x{150}\npayNow \(http/);
    await page.screenshot({ path: await artifactPath("triage-history-error.png") });
    await page.getByRole("tab", { name: /Console/ }).click();
    const console = page.locator(".console .error-evidence");
    await console.locator("summary").click();
    assert.match(await console.locator("pre").innerText(), /x{150}\npayNow \(http/);
    await page.screenshot({ path: await artifactPath("triage-console-error.png") });
  });
  assert.deepEqual(errors, []);
  await context.close();
});
