// Browser test of the page layer: the fixture app's islands hydrate in Chromium, and a page without
// islands loads no script at all.
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "@/tests/helpers/browser.ts";
import { buildIslands } from "@/fresh/build.ts";
import { createPageHandler, createStaticHandler } from "@/fresh/server.ts";
import manifest from "@/fresh/testdata/fresh.gen.ts";
import { FIXTURE_DIR, FIXTURE_STATIC } from "@/fresh/testdata/helpers.ts";

async function startFixtureServer(buildDir: string) {
  await buildIslands({ rootDir: FIXTURE_DIR, islands: Object.keys(manifest.islands), buildDir });
  const pages = await createPageHandler(manifest, { staticDir: FIXTURE_STATIC, buildDir });
  const serveStatic = createStaticHandler({ staticDir: FIXTURE_STATIC, buildDir });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => (await serveStatic(req)) ?? pages(req, {}),
  );
  return { server, origin: `http://127.0.0.1:${server.addr.port}` };
}

Deno.test("islands hydrate in the browser; pages without islands load no script", async () => {
  const buildDir = await Deno.makeTempDir({ prefix: "fresh-e2e-build-" });
  const profile = await Deno.makeTempDir({ prefix: "fresh-e2e-profile-" });
  const { server, origin } = await startFixtureServer(buildDir);
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("response", (res) => {
      // The fixture has no favicon; every other request must succeed.
      if (res.status() >= 400 && !res.url().endsWith("/favicon.ico")) errors.push(res.url());
    });

    const label = "Clicks </script> é 日本 🎉";
    await page.goto(`${origin}/counter?label=${encodeURIComponent(label)}`);
    await page.waitForSelector("fresh-island[data-hydrated='true'] >> nth=1");
    const first = page.locator(".counter").nth(0);
    const second = page.locator(".counter").nth(1);
    assert.equal(await first.locator(".label").textContent(), label);
    assert.equal(await first.locator(".count").textContent(), "3");
    await first.locator("button.inc").click();
    await first.locator("button.inc").click();
    assert.equal(await first.locator(".count").textContent(), "5");
    assert.equal(await second.locator(".count").textContent(), "10", "islands keep own state");
    assert.deepEqual(errors, []);

    const scripts: string[] = [];
    page.on("request", (req) => req.resourceType() === "script" && scripts.push(req.url()));
    await page.goto(`${origin}/greet/Ada`);
    assert.equal(await page.locator("#greet").textContent(), "Hello, Ada!");
    assert.equal(await page.evaluate(() => document.scripts.length), 0);
    assert.deepEqual(scripts, []);
  } finally {
    await browser.close();
    await server.shutdown();
    await Deno.remove(buildDir, { recursive: true });
    await Deno.remove(profile, { recursive: true });
  }
});
