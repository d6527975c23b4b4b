// Browser tests of the replay of a visit recorded by the served SDK: a masked select shows a
// neutral masked value, never a real option that was not chosen; the seek slider's arrow keys
// step 5 s (1 s with Shift); Tab never walks into the replayed page; a long path and a long console
// line wrap in the 320 px panel and show whole when clicked; a comment at a rage click's moment
// and the rage click are each hovered on the seek bar; a public link's buttons are named.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { waitFor } from "./sdk_harness.ts";
import { sessionRow } from "./sdk_readback.ts";
import { triageWorld } from "./triage_world.ts";
import { recent } from "@/tests/helpers/times.ts";

type Ph = { ph: { sessionId: string; flush(): Promise<void> } };
const T0 = recent(Date.parse("2026-03-02T10:00:00Z"));
/** A page whose path is longer than the History panel is wide. */
const PATH =
  "/catalogue/garden-furniture/outdoor-lounge-sets/weatherproof-rattan-corner-sofa/address";

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
    PATH,
    `<label>Country <select id="country">
  <option value="NO">Norway</option><option value="DE">Germany</option><option value="SE">Sweden</option>
</select></label>
<button id="a">One</button> <a href="#b">Two</a> <input id="c" placeholder="Three">
<button id="thrower" onclick="payNow()">Pay</button>
<script>function payNow() { throw new Error("Checkout failed for order 5521: " + "x".repeat(150)); }
console.log("Basket: " + Array.from({ length: 40 }, (_, i) => "sku-" + i).join(", "));</script>
<p id="tick">0</p>`,
  );
  await using browser = await launchChromium();
  const visit = await browser.newPage();
  await visit.clock.install({ time: T0 });
  await visit.clock.pauseAt(T0 + 1_000);
  await visit.goto(`${w.siteUrl}${PATH}`);
  const externalId = await visit.evaluate(() => (window as unknown as Ph).ph.sessionId);
  await visit.clock.runFor(2_000);
  await visit.selectOption("#country", "DE");
  // a rage click on a button that does nothing, its burst over before the error
  for (let i = 0; i < 4; i++) await visit.click("#a", { delay: 10 });
  await visit.clock.runFor(4_000);
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

  // A comment at the rage click's very moment: its seek bar tick would sit on the signal's.
  const rage = await db.selectFrom("markers").select("ts").where("session_id", "=", session!.id)
    .where("kind", "=", "rage_click").executeTakeFirstOrThrow();
  const rageAt = Number(rage.ts) - new Date(session!.started_at).getTime();
  const comment = await call(w.server.t.app, "POST", `/api/sessions/${session!.id}/comments`, {
    cookie: w.cookie,
    body: { offsetMs: rageAt, text: "Why four clicks here?" },
    headers: { Origin: w.server.url },
  });
  assert.equal(comment.status, 201);

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
  await t.step(
    "a long path and a long console line wrap in the 320 px panel, whole when clicked",
    async () => {
      assert.equal((await page.locator(".replay-panel").boundingBox())!.width, 320);
      await page.getByRole("tab", { name: "History" }).click();
      /** Whether an element's text shows whole: nothing cut on the right or below. */
      const whole = (selector: string) =>
        page.locator(selector).first().evaluate((el) =>
          el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1
        );
      const start = ".history-row[data-kind=init]";
      assert.match(
        await page.locator(`${start} .history-label`).textContent() ?? "",
        new RegExp(PATH),
      );
      await page.locator(start).click();
      assert.ok(await whole(`${start} .history-label`), "the page's path is cut");
      // its stack wraps in the panel, never cut on the right (a long one scrolls down)
      await page.locator(".history .error-evidence summary").click();
      assert.ok(
        await page.locator(".history .error-evidence pre").evaluate((pre) =>
          pre.scrollWidth <= pre.clientWidth
        ),
        "the error's stack is cut",
      );
      await page.screenshot({ path: await artifactPath("triage-history-long-path.png") });
      await page.getByRole("tab", { name: /Console/ }).click();
      const basket = page.locator(".console-row", { hasText: "Basket: sku-0" });
      assert.equal(
        await basket.locator(".console-args").evaluate((el) =>
          el.scrollHeight > el.clientHeight + 1
        ),
        true,
        "a 40-item line should be folded to three lines before a click",
      );
      await basket.click();
      assert.ok(await whole(".console-row[data-open] .console-args"), "the console line is cut");
      assert.match(await basket.innerText(), /sku-39/);
      await page.screenshot({ path: await artifactPath("triage-console-long-line.png") });
    },
  );
  await t.step(
    "a comment at a rage click's moment and the rage click are each hovered and named",
    async () => {
      await page.goto(`${w.server.url}/replays/${session!.id}`);
      await page.locator(".replay-player[data-ready='true']").waitFor();
      const hover = page.getByTestId("seek-hover");
      const pin = (await page.locator(".seek-tick[data-kind=comment]").boundingBox())!;
      const tick = (await page.locator(".seek-tick[data-kind=rage_click]").boundingBox())!;
      // side by side on the bar: the same moment, neither under the other
      assert.ok(Math.abs(pin.x + pin.width / 2 - (tick.x + tick.width / 2)) < 1);
      assert.ok(pin.y + pin.height <= tick.y, "the comment's pin covers the rage click's tick");
      await page.mouse.move(pin.x + pin.width / 2, pin.y + pin.height / 2);
      await hover.getByText("Comment: Why four clicks here?").waitFor();
      assert.doesNotMatch(await hover.innerText(), /Rage click/);
      await page.screenshot({ path: await artifactPath("triage-seek-comment.png") });
      await page.mouse.move(tick.x + tick.width / 2, tick.y + tick.height / 2);
      await hover.getByText(/^Rage click/).waitFor();
      assert.doesNotMatch(await hover.innerText(), /Comment/);
      await page.screenshot({ path: await artifactPath("triage-seek-rage.png") });
      // a click on the pin seeks to the comment's moment
      await page.mouse.click(pin.x + pin.width / 2, pin.y + pin.height / 2);
      await page.locator(`.replay-player[data-now='${rageAt}'][data-seeking='false']`).waitFor();
    },
  );
  await t.step("a public link's buttons are each named", async () => {
    const project = await db.selectFrom("projects").select("organization_id")
      .where("id", "=", w.projectId).executeTakeFirstOrThrow();
    const admin = await signedInUser(w.server.t, {
      role: "ADMIN",
      organizationId: project.organization_id,
    });
    const made = await call(w.server.t.app, "POST", `/api/sessions/${session!.id}/shares`, {
      cookie: admin.cookie,
      body: { showConsole: true },
      headers: { Origin: w.server.url },
    });
    assert.equal(made.status, 201);
    const visitor = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    await visitor.goto((await made.json()).url);
    await visitor.locator(".replay-player[data-ready='true']").waitFor();
    for (const name of ["Play", "Back 5 seconds", "Forward 5 seconds"]) {
      assert.equal(await visitor.getByRole("button", { name, exact: true }).count(), 1, name);
    }
    // a History row is named by what it shows, word by word
    assert.equal(
      await visitor.getByRole("button", { name: /^Rage 4 clicks button#a 0:0\d$/ }).count(),
      1,
      await visitor.locator(".history").ariaSnapshot(),
    );
    const buttons = visitor.getByRole("button");
    assert.ok(await buttons.count() >= 5);
    assert.equal(await visitor.getByRole("button", { name: /\S/ }).count(), await buttons.count());
    await visitor.screenshot({ path: await artifactPath("triage-share-buttons.png") });
    await visitor.close();
  });
  assert.deepEqual(errors, []);
  await context.close();
});
