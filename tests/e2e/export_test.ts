// An exported replay in Chromium: the HTML file, saved to disk and opened from there in
// a browser whose network is closed (offline, every request routed to an abort), shows its first
// frame at once, plays to the end with speed, seek and History working, and makes no request at
// all: not the recorded page's image, not a worker, not the events. (Masking: a real page's text
// masked by the SDK, exported: tests/e2e/export_masking_test.ts.)
import assert from "node:assert/strict";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { sharesWorld } from "@/tests/helpers/shares_world.ts";

Deno.test("export e2e: the HTML file opened from disk with no network plays to the end and makes zero requests", async () => {
  await using server = await startPagesServer();
  const w = await sharesWorld(server.t, server.url);
  const res = await w.api("GET", `/api/sessions/${w.sessionId}/export?format=html`);
  assert.equal(res.status, 200);
  const dir = await Deno.makeTempDir({ prefix: "export-e2e-" });
  const file = `${dir}/replay.html`;
  await Deno.writeFile(file, new Uint8Array(await res.arrayBuffer()));
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({
      offline: true,
      viewport: { width: 1280, height: 860 },
    });
    const requests: string[] = [];
    const url = `file://${file}`;
    // Only the file itself may load; anything else would be refused (and is counted below).
    await context.route(
      "**/*",
      (route) => route.request().url() === url ? route.continue() : route.abort(),
    );
    const page = await context.newPage();
    page.on("request", (r) => requests.push(r.url()));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);

    // The first frame, before anything is pressed.
    await page.locator(".replay-player[data-ready='true']").waitFor();
    const frameText = () =>
      page.locator(".replay-root iframe").evaluate((iframe: HTMLIFrameElement) =>
        (iframe.contentDocument?.body?.innerText ?? "").replace(/\s+/g, " ").trim()
      );
    await page.waitForFunction(() =>
      document.querySelector<HTMLIFrameElement>(".replay-root iframe")?.contentDocument?.body
        ?.innerText.includes("Cart page")
    );
    assert.equal(await page.locator(".replay-player").getAttribute("data-now"), "0");
    assert.equal(await page.getByText("Loading the recording…").count(), 0);
    await page.screenshot({ path: await artifactPath("export-offline.png") });

    // History is there, with the session's start.
    assert.match(
      await page.locator(".history-row[data-kind='init']").textContent() ?? "",
      /Session start/,
    );
    // Speed and seek, then play to the end.
    await page.getByRole("combobox", { name: "Speed" }).selectOption("2");
    await page.getByRole("slider", { name: "Seek" }).fill("55000");
    await page.locator(".replay-player[data-now='55000'][data-seeking='false']").waitFor();
    assert.match(await frameText(), /At 50 s/);
    await page.getByRole("slider", { name: "Seek" }).fill("94000");
    await page.locator(".replay-player[data-now='94000'][data-seeking='false']").waitFor();
    await page.getByRole("button", { name: "Play" }).click();
    await page.locator(".replay-player[data-ended='true']").waitFor();
    assert.equal(await page.locator(".replay-player").getAttribute("data-now"), "100000");
    assert.match(await frameText(), /At 100 s/);
    assert.equal(await page.getByRole("switch", { name: "Skip idle" }).isChecked(), true);

    // The one load is the file itself; nothing else was asked for.
    assert.deepEqual(requests.filter((r) => r !== url), []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await Deno.remove(dir, { recursive: true });
  }
});
