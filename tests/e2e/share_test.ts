// A public link in Chromium: an OWNER makes a link for 00:40–01:10 with 1 h expiry in
// the Share dialog; a signed-out browser plays exactly that window and cannot seek outside it; the
// page and its event answers hold no tracked user nor other session; the token opens no /api
// route; revoked, expired and deleted links are the 404 page; a VIEWER cannot make one.
import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { decodeBatch } from "@/recording/decode.ts";
import { PERSON, sharesWorld, shopEvents } from "@/tests/helpers/shares_world.ts";

const SECRETS = [PERSON.userId, PERSON.name, PERSON.email, PERSON.plan, "Hidden Org Name"];

async function signedIn(context: BrowserContext, cookie: string, url: string) {
  const [name, value] = cookie.split("=");
  await context.addCookies([{ name, value, url }]);
}

const now = async (page: Page) =>
  Number(await page.locator(".replay-player").getAttribute("data-now"));

async function frameText(page: Page): Promise<string> {
  return await page.locator(".replay-root iframe").evaluate((iframe: HTMLIFrameElement) =>
    (iframe.contentDocument?.body?.innerText ?? "").replace(/\s+/g, " ").trim()
  );
}

Deno.test("share e2e: a link for 00:40–01:10, made in the dialog, plays exactly that window signed out", async (t) => {
  await using server = await startPagesServer();
  const w = await sharesWorld(server.t, server.url);
  const browser = await launchChromium();
  try {
    const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    await signedIn(ownerContext, w.owner.cookie, server.url);
    const owner = await ownerContext.newPage();
    let url = "";

    await t.step("the OWNER makes a 1 h link for 0:40–1:10 in the Share dialog", async () => {
      await owner.goto(`${server.url}/replays/${w.sessionId}`);
      await owner.locator(".replay-player[data-ready='true']").waitFor();
      await owner.locator("fresh-island[data-hydrated='true'] .share-button").click();
      const dialog = owner.getByRole("dialog", { name: "Share this replay" });
      await dialog.getByLabel("Expires after").selectOption({ label: "1 hour" });
      await dialog.getByLabel("From").fill("0:40");
      await dialog.getByLabel("To").fill("1:10");
      await dialog.getByRole("button", { name: "Create link" }).click();
      url = await dialog.locator("#share-url").inputValue();
      assert.match(url, /\/s\/[A-Za-z0-9_-]{43}$/);
      await dialog.locator(".share-list tbody tr").first().waitFor();
      assert.match(
        await dialog.locator(".share-list tbody tr").first().textContent() ?? "",
        /0:40–1:10/,
      );
      await owner.screenshot({ path: await artifactPath("share-dialog.png") });
      const row = await w.db.selectFrom("session_shares").selectAll().executeTakeFirstOrThrow();
      assert.equal(row.start_ms, 40_000);
      assert.equal(row.end_ms, 70_000);
      const hours = (row.expires_at.getTime() - row.created_at.getTime()) / 3_600_000;
      assert.ok(Math.abs(hours - 1) < 0.01, String(hours));
    });

    const visitor = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await visitor.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    const requested: string[] = [];
    const answers: Promise<string>[] = [];
    page.on("request", (r) => requested.push(r.url()));
    page.on("response", (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith("/s/")) answers.push(r.text().catch(() => ""));
    });

    await t.step("signed out, it opens at 0:40 and shows the page as it was then", async () => {
      await page.goto(url);
      await page.locator(".replay-player[data-ready='true']").waitFor();
      await page.locator(".replay-progress").waitFor({ state: "detached" });
      assert.equal(await now(page), 0);
      assert.equal(
        await page.getByTestId("share-window").textContent(),
        "0:40–1:10 of a recorded session",
      );
      // The clock says the session's moments: the window's end, not its length.
      assert.equal(await page.getByTestId("clock-total").textContent(), "1:10");
      await page.waitForFunction(() => {
        const f = document.querySelector<HTMLIFrameElement>(".replay-root iframe");
        return f?.contentDocument?.body?.innerText.includes("At 40 s");
      });
      assert.match(await frameText(page), /At 40 s/);
      // No dashboard frame, no copy-link (it needs the dashboard), no console (not chosen).
      assert.equal(await page.locator(".top-bar, header.topbar, nav").count(), 0);
      assert.equal(await page.getByRole("button", { name: "Copy link at this moment" }).count(), 0);
      assert.equal(await page.getByRole("tab", { name: /Console/ }).count(), 0);
      await page.screenshot({ path: await artifactPath("share-page.png") });
    });

    await t.step("the seek bar spans the window and cannot leave it", async () => {
      const seek = page.getByRole("slider", { name: "Seek" });
      assert.equal(await seek.getAttribute("min"), "0");
      assert.equal(await seek.getAttribute("max"), "30000");
      await seek.fill("30000");
      await page.locator(".replay-player[data-now='30000'][data-seeking='false']").waitFor();
      assert.match(await frameText(page), /At 70 s/);
      // Past the end, from inside the window: the player moves (an answer to the input, not a
      // wait) and holds at the window's end, and so does the range input.
      await seek.fill("20000");
      await page.locator(".replay-player[data-now='20000'][data-seeking='false']").waitFor();
      await seek.evaluate((input: HTMLInputElement) => {
        input.max = "999999";
        input.value = "90000";
        input.dispatchEvent(new Event("input", { bubbles: true }));
      });
      await page.locator(".replay-player:not([data-now='20000'])[data-seeking='false']").waitFor();
      assert.equal(await now(page), 30_000);
      assert.equal(await seek.inputValue(), "30000");
      assert.match(await frameText(page), /At 70 s/);
      assert.doesNotMatch(await frameText(page), /At 80 s|At 90 s/);
      await page.getByRole("button", { name: "Back 5 seconds" }).click();
      await page.locator(".replay-player[data-now='25000'][data-seeking='false']").waitFor();
      assert.match(await frameText(page), /At 60 s/);
      // Before the start: held at 0 (0:40 of the session).
      for (let i = 0; i < 7; i++) {
        await page.getByRole("button", { name: "Back 5 seconds" }).click();
      }
      await page.locator(".replay-player[data-now='0'][data-seeking='false']").waitFor();
      assert.match(await frameText(page), /At 40 s/);
    });

    await t.step("it plays to the window's end and stops there", async () => {
      await page.getByRole("slider", { name: "Seek" }).fill("26000");
      await page.locator(".replay-player[data-now='26000'][data-seeking='false']").waitFor();
      await page.getByRole("button", { name: "Play" }).click();
      await page.locator(".replay-player[data-ended='true']").waitFor();
      assert.equal(await now(page), 30_000);
      assert.match(await frameText(page), /At 70 s/);
      assert.deepEqual(errors, []);
    });

    await t.step(
      "its HTML and event answers hold no tracked user nor another session; no /api request",
      async () => {
        const texts = await Promise.all(answers);
        assert.ok(texts.length >= 2, "the page and its events");
        for (const text of texts) {
          for (const secret of [...SECRETS, w.otherSessionId, w.sessionId]) {
            assert.ok(!text.includes(secret), `an answer holds ${secret}`);
          }
        }
        const paths = requested.map((r) => new URL(r).pathname);
        assert.ok(!paths.some((p) => p.startsWith("/api/")), paths.join(" "));
        assert.ok(paths.includes(`${new URL(url).pathname}/events`));
      },
    );

    await t.step("the token is refused by GET /api/sessions/:id", async () => {
      const token = new URL(url).pathname.slice(3);
      const status = await page.evaluate(async ([id, token]) => {
        const answers = await Promise.all([
          fetch(`/api/sessions/${id}`, { headers: { authorization: `Bearer ${token}` } }),
          fetch(`/api/sessions/${id}?token=${token}`),
          fetch(`/api/sessions/${id}/events`, { headers: { authorization: `Bearer ${token}` } }),
        ]);
        return answers.map((a) => a.status);
      }, [w.sessionId, token]);
      assert.deepEqual(status, [401, 401, 401]);
    });

    await t.step("revoked in the dialog, the link's next request is the 404 page", async () => {
      const dialog = owner.getByRole("dialog", { name: "Share this replay" });
      await dialog.getByRole("button", { name: "Revoke" }).click();
      await dialog.locator(".share-list tbody tr[data-status='revoked']").waitFor();
      const answer = await page.goto(url);
      assert.equal(answer?.status(), 404);
      assert.match(await page.locator("h1").textContent() ?? "", /This link is not available/);
      assert.equal(answer?.headers()["x-robots-tag"], "noindex, nofollow");
      await page.screenshot({ path: await artifactPath("share-404.png") });
    });

    await t.step("expired, then its session deleted: 404 each", async () => {
      const made = await w.share({ expiresInHours: 1 });
      const link = made.body.url;
      assert.equal((await page.goto(link))?.status(), 200);
      await w.db.updateTable("session_shares").set({ expires_at: new Date(Date.now() - 1) })
        .where("id", "=", made.body.id).execute();
      assert.equal((await page.goto(link))?.status(), 404);
      const again = await w.share({});
      const second = again.body.url;
      assert.equal((await page.goto(second))?.status(), 200);
      assert.equal((await w.api("DELETE", `/api/sessions/${w.sessionId}`)).status, 204);
      assert.equal((await page.goto(second))?.status(), 404);
    });
  } finally {
    await browser.close();
  }
});

Deno.test("share e2e: a VIEWER sees the links but no form to make one", async () => {
  await using server = await startPagesServer();
  const w = await sharesWorld(server.t, server.url);
  await w.share({});
  const viewer = await w.member("VIEWER");
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    await signedIn(context, viewer.cookie, server.url);
    const page = await context.newPage();
    await page.goto(`${server.url}/replays/${w.sessionId}`);
    await page.locator("fresh-island[data-hydrated='true'] .share-button").click();
    const dialog = page.getByRole("dialog", { name: "Share this replay" });
    await dialog.locator(".share-list tbody tr").first().waitFor();
    assert.equal(await dialog.getByRole("button", { name: "Create link" }).count(), 0);
    assert.equal(await dialog.getByRole("button", { name: "Revoke" }).count(), 0);
    assert.match(
      await dialog.textContent() ?? "",
      /Only an admin or owner can make or revoke links/,
    );
  } finally {
    await browser.close();
  }
});

Deno.test("share e2e: a recording's relative addresses make no request under /s/ and lock the viewer out of no link", async () => {
  await using server = await startPagesServer();
  const w = await sharesWorld(server.t, server.url);
  const T = shopEvents()[0][0].timestamp;
  const el = (id: number, tagName: string, attributes = {}, childNodes: unknown[] = []) => ({
    type: 2,
    id,
    tagName,
    attributes,
    childNodes,
  });
  // 25 images, a stylesheet and a background by relative address: each would resolve under the
  // link's own (/s/r0.png …), 5 more than the unknown tokens an address may try in a minute.
  const images = Array.from({ length: 25 }, (_, i) => el(100 + i, "img", { src: `r${i}.png` }));
  const session = await w.record([[
    {
      type: 4,
      data: { href: "https://shop.test/gallery", width: 1280, height: 800 },
      timestamp: T,
    },
    {
      type: 2,
      data: {
        node: {
          type: 0,
          id: 1,
          childNodes: [el(2, "html", {}, [
            el(3, "head", {}, [el(4, "link", { rel: "stylesheet", href: "site.css" })]),
            el(5, "body", { style: "background: url(bg.png)" }, [
              el(6, "h1", {}, [{ type: 3, id: 7, textContent: "Gallery" }]),
              ...images,
            ]),
          ])],
        },
        initialOffset: { left: 0, top: 0 },
      },
      timestamp: T + 1,
    },
    {
      type: 3,
      data: { source: 1, positions: [{ x: 1, y: 1, id: 5, timeOffset: 0 }] },
      timestamp: T + 2_000,
    },
  ]]);
  const first = (await w.share({}, undefined, session)).body.url;
  const second = (await w.share({})).body.url;
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext()).newPage();
    const requested: string[] = [];
    page.on("request", (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(first);
    await page.locator(".replay-player[data-ready='true']").waitFor();
    await page.waitForFunction(() =>
      document.querySelector<HTMLIFrameElement>(".replay-root iframe")?.contentDocument?.body
        ?.innerText.includes("Gallery")
    );
    await page.waitForLoadState("networkidle");
    const onS = requested.filter((p) => p.startsWith("/s/"));
    assert.equal((await page.goto(second))?.status(), 200, "not locked out");
    const token = new URL(first).pathname;
    assert.deepEqual(onS, [token, `${token}/events`]);
  } finally {
    await browser.close();
  }
});

Deno.test("share e2e: a link opens at its window's start showing the page as it stood then, from events none stamped before it", async () => {
  await using server = await startPagesServer();
  const w = await sharesWorld(server.t, server.url);
  const T = shopEvents()[0][0].timestamp;
  const at = (t: number, type: number, data: unknown) => ({ type, data, timestamp: T + t });
  const input = (t: number, id: number, text: string, isChecked = false) =>
    at(t, 3, { source: 5, id, text, isChecked });
  const el = (id: number, tagName: string, attributes = {}, childNodes: unknown[] = []) => ({
    type: 2,
    id,
    tagName,
    attributes,
    childNodes,
  });
  const option = (id: number, value: string) =>
    el(id, "option", { value }, [{ type: 3, id: id + 1, textContent: value.toUpperCase() }]);
  const session = await w.record([[
    at(0, 4, { href: "https://shop.test/form?reset_token=RT", width: 1000, height: 600 }),
    at(1, 2, {
      node: {
        type: 0,
        id: 1,
        childNodes: [el(2, "html", {}, [
          el(3, "head", {}, [el(50, "style")]),
          el(4, "body", {}, [
            el(10, "input", { type: "text" }),
            el(20, "select", {}, [option(21, "a"), option(23, "b")]),
            el(30, "input", { type: "checkbox" }),
            el(40, "div", { id: "box", style: "height: 100px; overflow: auto" }, [
              el(41, "div", { style: "height: 1000px" }),
            ]),
            el(11, "p"),
            el(60, "iframe"),
          ]),
        ])],
      },
      initialOffset: { left: 0, top: 0 },
    }),
    // The frame's document, as rrweb records it once the frame has loaded.
    at(5_000, 3, {
      source: 0,
      adds: [{
        parentId: 60,
        nextId: null,
        node: {
          type: 0,
          id: 61,
          childNodes: [el(62, "html", {}, [
            el(63, "body", {}, [{ type: 3, id: 64, textContent: "Inside the frame" }]),
          ])],
        },
      }],
      texts: [],
      attributes: [],
      removes: [],
    }),
    at(10_000, 3, {
      source: 0,
      adds: [{
        parentId: 11,
        nextId: null,
        node: { type: 3, id: 12, textContent: "Added at 10 s" },
      }],
      texts: [],
      attributes: [],
      removes: [],
    }),
    input(12_000, 10, "draft at 12 s"),
    input(20_000, 10, "final at 20 s"),
    input(21_000, 20, "b"),
    input(22_000, 30, "on", true),
    at(23_000, 3, { source: 3, id: 40, x: 0, y: 250 }),
    at(24_000, 3, {
      source: 8,
      id: 50,
      adds: [{ rule: "#box { border-top: 7px solid red }", index: 0 }],
    }),
    input(45_000, 10, "typed in the window"),
    at(60_000, 3, { source: 1, positions: [{ x: 5, y: 5, id: 4, timeOffset: 0 }] }),
  ]]);
  const url = (await w.share({ startMs: 40_000, endMs: 60_000 }, undefined, session)).body.url;
  const answer = await (await fetch(`${url}/events`)).json();
  const sent = (await Promise.all(
    answer.batches.map((b: { data: string }) => decodeBatch(b.data)),
  )).flat();
  assert.ok(sent.every((e) => e.timestamp >= T + 40_000), "nothing stamped before the start");
  const browser = await launchChromium();
  try {
    const page = await (await browser.newContext()).newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.locator(".replay-player[data-ready='true']").waitFor();
    const frame = page.locator(".replay-root iframe");
    await page.waitForFunction(() =>
      document.querySelector<HTMLIFrameElement>(".replay-root iframe")?.contentDocument?.body
        ?.innerText.includes("Added at 10 s")
    );
    const shown = () =>
      frame.evaluate((iframe: HTMLIFrameElement) => {
        const doc = iframe.contentDocument!;
        const box = doc.querySelector<HTMLElement>("#box")!;
        return {
          text: doc.querySelector<HTMLInputElement>("input[type=text]")!.value,
          select: doc.querySelector("select")!.value,
          checked: doc.querySelector<HTMLInputElement>("input[type=checkbox]")!.checked,
          scroll: box.scrollTop,
          border: iframe.contentWindow!.getComputedStyle(box).borderTopWidth,
          frame: doc.querySelector("iframe")?.contentDocument?.body?.textContent,
        };
      });
    const start = {
      text: "final at 20 s",
      select: "b",
      checked: true,
      scroll: 250,
      border: "7px",
      frame: "Inside the frame",
    };
    assert.equal(await now(page), 0);
    assert.deepEqual(await shown(), start, "at its start, as opened");
    await page.getByRole("slider", { name: "Seek" }).fill("10000");
    await page.locator(".replay-player[data-now='10000'][data-seeking='false']").waitFor();
    assert.deepEqual(await shown(), { ...start, text: "typed in the window" });
    await page.getByRole("slider", { name: "Seek" }).fill("0");
    await page.locator(".replay-player[data-now='0'][data-seeking='false']").waitFor();
    assert.deepEqual(await shown(), start, "and again, sought back");
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
