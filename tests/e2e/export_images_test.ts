// An exported replay keeps the recorded page's images: the server fetched them when the file was
// made (from a loopback "site" that EXPORT_FETCH_ALLOW_HOSTS allows) and wrote them into it, so the
// file opened from disk in Chromium with the network closed shows them, and makes no request; the
// image at a private address that is not allowed was never asked for, and the file says so.
import assert from "node:assert/strict";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";
import { sharesWorld } from "@/tests/helpers/shares_world.ts";
import { galleryEvents } from "@/tests/helpers/image_recording.ts";
import { png, RED_PNG_WIDTH, startImageServer } from "@/tests/helpers/image_server.ts";

Deno.test("export e2e: the HTML file opened from disk with no network shows the recorded images and names the one it could not hold", async () => {
  await using site = startImageServer({ "/logo.png": () => png(), "/bg.png": () => png() });
  await using intranet = startImageServer({ "/secret.png": () => png() });
  await using server = await startPagesServer({ EXPORT_FETCH_ALLOW_HOSTS: site.host });
  const w = await sharesWorld(server.t, server.url);
  const id = await w.record([galleryEvents({
    page: `${site.origin}/gallery`,
    imgs: [`${site.origin}/logo.png`, `${intranet.origin}/secret.png`],
    background: `${site.origin}/bg.png`,
  })]);
  const res = await w.api("GET", `/api/sessions/${id}/export?format=html`);
  assert.equal(res.status, 200);
  const dir = await Deno.makeTempDir({ prefix: "export-images-e2e-" });
  const file = `${dir}/replay.html`;
  await Deno.writeFile(file, new Uint8Array(await res.arrayBuffer()));
  assert.deepEqual(site.seen.toSorted(), ["/bg.png", "/logo.png"]);
  assert.deepEqual(intranet.seen, []);

  const browser = await launchChromium();
  try {
    const context = await browser.newContext({
      offline: true,
      viewport: { width: 1280, height: 860 },
    });
    const url = `file://${file}`;
    await context.route(
      "**/*",
      (route) => route.request().url() === url ? route.continue() : route.abort(),
    );
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(url);
    await page.locator(".replay-player[data-ready='true']").waitFor();
    await page.waitForFunction(() =>
      document.querySelector<HTMLIFrameElement>(".replay-root iframe")?.contentDocument?.body
        ?.innerText.includes("Gallery page")
    );
    // The logo has loaded from the file itself; the private one is blank.
    await page.waitForFunction(() => {
      const frame = document.querySelector<HTMLIFrameElement>(".replay-root iframe")!;
      const img = frame.contentDocument!.querySelector<HTMLImageElement>("img[alt='img-0']");
      return img?.complete && img.naturalWidth > 0;
    });
    const shown = await page.locator(".replay-root iframe").evaluate((f: HTMLIFrameElement) => {
      const doc = f.contentDocument!;
      const img = (alt: string) => doc.querySelector<HTMLImageElement>(`img[alt='${alt}']`)!;
      return {
        logo: img("img-0").naturalWidth,
        secret: img("img-1").naturalWidth,
        hero: getComputedStyle(doc.querySelector(".hero")!).backgroundImage.slice(0, 27),
      };
    });
    assert.deepEqual(shown, {
      logo: RED_PNG_WIDTH,
      secret: 0,
      hero: 'url("data:image/png;base64,',
    });
    // The notice above the player names the image left out, and why.
    const notice = page.getByRole("note", { name: "Images not in this file" });
    assert.equal(await notice.isVisible(), true);
    const text = (await notice.innerText()).replace(/\s+/g, " ");
    assert.match(
      text,
      /^1 image of the recording is not in this file and shows blank \(2 images are\):/,
    );
    assert.ok(
      text.includes(`${intranet.origin}/secret.png — refused: a private address (127.0.0.1)`),
      text,
    );
    await page.screenshot({ path: await artifactPath("export-images-offline.png") });
    assert.deepEqual(requests.filter((r) => r !== url), []);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await Deno.remove(dir, { recursive: true });
  }
  assert.deepEqual(intranet.seen, []);
});
