// Browser test: one site running two projects' keys (staging and production, two tenants). What a
// page of key A left unsent — its journal entry after the browser died, its events parked for the
// tab's next page — reaches A's project only: a page of key B sends none of it, and a later page
// of key A sends it all, each event once; the two keys share no session id in a tab. One service, one site and one profile for both cases.
import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import type { Page } from "playwright-core";
import { sdkAssets } from "@/api/service/sdk_assets.ts";
import { buildSdk } from "@/sdk/build/build.ts";
import { recent } from "@/tests/helpers/times.ts";
import { journalTexts } from "@/tests/helpers/journal_texts.ts";
import { startTestServer } from "@/tests/helpers/server.ts";
import { BURST_SCRIPT, burstIndices, waitFor } from "./sdk_harness.ts";
import { storedBatches } from "./sdk_readback.ts";
import { type OwnChromium, ownChromium } from "./triage_world.ts";

interface Entry {
  sessionId: string;
  text: string;
}

const journaled = async (page: Page, sessionId: string, text = "") =>
  (await journalTexts(page)).some((e) => e.sessionId === sessionId && e.text.includes(text));

/** Waits until the page's SDK has read its own key's settings. */
function settingsOf(page: Page, key: string): Promise<unknown> {
  return page.waitForFunction((k) => localStorage.getItem(`playhead:settings:${k}`) !== null, key);
}

type Ph = { ph: { sessionId: string; flush(): Promise<void> }; burst: BurstFn };
type BurstFn = (n: number, start: number, noise: number) => Promise<void>;

const sessionOf = (page: Page) => page.evaluate(() => (window as unknown as Ph).ph.sessionId);
const flush = (page: Page) => page.evaluate(() => (window as unknown as Ph).ph.flush());

Deno.test("sdk e2e: a page of one key never sends what a page of another key left, and a page of its own key does", async (t) => {
  const sdkDir = await Deno.makeTempDir({ prefix: "playhead-sdk-" });
  await buildSdk({ outDir: sdkDir, dev: false });
  await esbuild.stop();
  const server = await startTestServer({ mounts: [sdkAssets({ dir: sdkDir })] });
  const a = await server.createProject();
  const b = await server.createProject();
  const sdk = (key: string) => {
    const init = JSON.stringify({ apiKey: key, endpoint: server.url, flushInterval: 600_000 });
    return `<script src="${server.url}/sdk/v1/playhead.js"></script>
<script>window.ph = Playhead.init(${init});</script>`;
  };
  const pages: Record<string, string> = {
    "/a": `${sdk(a.key)}<p>AlphaTenantText</p><script>${BURST_SCRIPT}</script>`,
    "/b": `${sdk(b.key)}<p>BetaTenantText</p>`,
  };
  const site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const html = pages[new URL(req.url).pathname];
    if (html === undefined) return new Response("not found", { status: 404 });
    return new Response(`<!doctype html><html><head><meta charset="utf-8"></head>${html}</html>`, {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  });
  const siteUrl = `http://127.0.0.1:${site.addr.port}`;
  const profile = await Deno.makeTempDir({ prefix: "playhead-profile-" });
  let browser: OwnChromium = await ownChromium(profile);
  const tab = () => browser.browser.contexts()[0].newPage();
  const storedText = async (projectId: string, sessionId: string) =>
    (await storedBatches(server.db, projectId, sessionId)).map((x) => x.json).join("\n");

  try {
    await t.step(
      "the journal: a page of key B leaves key A's entry for a page of key A",
      async () => {
        // A page of each key records and is journaled (the 2 s write, on a controlled clock), A's
        // first; then the browser dies before either sends anything.
        const recorded: Record<string, string> = {};
        const start = recent(Date.now());
        for (const [path, key, text] of [["/a", a.key, "Alpha"], ["/b", b.key, "Beta"]]) {
          const page = await tab();
          if (path === "/a") {
            await page.clock.install({ time: start });
            await page.clock.pauseAt(start + 1_000);
          }
          await page.goto(`${siteUrl}${path}`);
          await settingsOf(page, key);
          const sessionId = recorded[path] = await sessionOf(page);
          for (let i = 0; i < 5; i++) { // bounded: the first write after the settings came
            await page.clock.runFor(2_000);
            if (await journaled(page, sessionId, `${text}TenantText`)) break;
          }
          assert.ok(await journaled(page, sessionId, `${text}TenantText`), `${path} journaled`);
        }
        await browser.kill();

        browser = await ownChromium(profile);
        const next = await tab();
        await next.goto(`${siteUrl}/b`);
        // B's own orphan, journaled after A's, is sent and gone: the recovery has passed A's entry.
        await waitFor(
          async () =>
            (await storedText(b.id, recorded["/b"])).includes("BetaTenantText") &&
            !(await journaled(next, recorded["/b"])),
          15_000,
          "key B's orphan recovered",
        );
        assert.deepEqual(await storedBatches(server.db, b.id, recorded["/a"]), [], "none to B");
        assert.ok(await journaled(next, recorded["/a"]), "A's entry kept");
        assert.deepEqual(await storedBatches(server.db, a.id, recorded["/a"]), []);

        await next.goto(`${siteUrl}/a`);
        await waitFor(
          async () => !(await journaled(next, recorded["/a"])),
          15_000,
          "key A's orphan recovered",
        );
        assert.ok((await storedText(a.id, recorded["/a"])).includes("AlphaTenantText"));
        assert.deepEqual(await storedBatches(server.db, b.id, recorded["/a"]), []);
        await next.close();
      },
    );

    await t.step(
      "the tab's parked events: a page of key B leaves them to the next page of key A",
      async () => {
        const page = await tab();
        const start = recent(Date.now());
        await page.clock.install({ time: start });
        await page.clock.pauseAt(start + 1_000);
        await page.goto(`${siteUrl}/a`);
        await settingsOf(page, a.key);
        const sessionId = await sessionOf(page);
        // Random text past the unload's 60 KB of keepalive bodies: the rest is parked for the tab.
        await page.evaluate(() => (window as unknown as Ph).burst(300, 0, 300));
        await page.goto(`${siteUrl}/b`); // the same tab, a page of key B
        await settingsOf(page, b.key);
        // Two keys share no session: B's page starts its own, and A's next page continues A's.
        const sessionOfB = await sessionOf(page);
        assert.notEqual(sessionOfB, sessionId, "key B's page in the tab has a session of its own");
        await flush(page);
        const onB = await storedText(b.id, sessionOfB);
        assert.ok(onB.includes("BetaTenantText"), "B's page is B's");
        assert.deepEqual(burstIndices(onB), [], "none of A's events with key B");
        assert.ok(!onB.includes("AlphaTenantText"));
        assert.deepEqual(
          await storedBatches(server.db, b.id, sessionId),
          [],
          "A's session not B's",
        );

        await page.goto(`${siteUrl}/a`);
        assert.equal(await sessionOf(page), sessionId, "key A's next page continues A's session");
        await waitFor(
          async () => {
            await flush(page);
            return burstIndices(await storedText(a.id, sessionId)).length >= 300;
          },
          15_000,
          "A's parked events sent by the page of key A",
        );
        const stored = burstIndices(await storedText(a.id, sessionId)).sort((x, y) => x - y);
        assert.deepEqual(stored, [...Array(300).keys()], "each of A's events once");
        await page.close();
      },
    );
  } finally {
    await browser.kill();
    await site.shutdown();
    await server.close();
    await Deno.remove(profile, { recursive: true });
    await Deno.remove(sdkDir, { recursive: true });
  }
});
