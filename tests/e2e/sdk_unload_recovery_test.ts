// Browser test: a tab closed and the browser killed at each point of the unload path, then the next
// page of the site recovering the journal: every event reaches the service once, however the
// keepalive bodies and the journal's copy were cut. One service and one profile for every case;
// each case's recovery runs in the browser the next case records in.
import assert from "node:assert/strict";
import * as esbuild from "esbuild";
import type { Page } from "playwright-core";
import { sdkAssets } from "@/api/service/sdk_assets.ts";
import { buildSdk } from "@/sdk/build/build.ts";
import { journalTexts } from "@/tests/helpers/journal_texts.ts";
import { startTestServer } from "@/tests/helpers/server.ts";
import { BURST_SCRIPT, burstIndices, settingsRead, waitFor } from "./sdk_harness.ts";
import { sessionRow, storedBatches } from "./sdk_readback.ts";
import { type OwnChromium, ownChromium } from "./triage_world.ts";

/** What becomes of the unload's keepalive bodies, and which journal write the kill leaves. */
interface Case {
  name: string;
  keepalive: "lost" | "stored";
  journal: "periodic" | "pagehide";
}

const CASES: Case[] = [
  { name: "before the keepalive bodies were sent", keepalive: "lost", journal: "periodic" },
  {
    name: "after the keepalive, before the journal write",
    keepalive: "stored",
    journal: "periodic",
  },
  { name: "after the journal write", keepalive: "stored", journal: "pagehide" },
  {
    name: "the keepalive lost on the way, the journal written",
    keepalive: "lost",
    journal: "pagehide",
  },
];

/** The journal's entries of `sessionId`, read in a page of the site. */
async function journal(page: Page, sessionId: string): Promise<string[]> {
  return (await journalTexts(page)).filter((e) => e.sessionId === sessionId).map((e) => e.text);
}

Deno.test("sdk e2e: a tab closed and the browser killed anywhere in the unload stores each event once", async (t) => {
  const sdkDir = await Deno.makeTempDir({ prefix: "playhead-sdk-" });
  await buildSdk({ outDir: sdkDir, dev: false });
  await esbuild.stop();
  const server = await startTestServer({ mounts: [sdkAssets({ dir: sdkDir })] });
  const project = await server.createProject();
  // The proxy in front of ingest: at unload it drops the bodies (lost) or stores them and loses
  // the answer (stored), so the page never learns they arrived.
  const proxy = { unload: null as Case["keepalive"] | null };
  const ingest = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = req.method === "POST" ? await req.arrayBuffer() : undefined;
    const cors = { "access-control-allow-origin": "*" };
    if (path === "/api/ingest" && proxy.unload === "lost") {
      return new Response(null, { status: 503, headers: cors });
    }
    const upstream = await fetch(server.url + path, {
      method: req.method,
      headers: req.headers,
      body,
    });
    if (path !== "/api/ingest" || proxy.unload !== "stored") return upstream;
    await upstream.body?.cancel();
    return new Response(null, { status: 503, headers: cors });
  });
  const init = JSON.stringify({
    apiKey: project.key,
    endpoint: `http://127.0.0.1:${ingest.addr.port}`,
  });
  const sdk = `<script src="${server.url}/sdk/v1/playhead.js"></script>
<script>window.ph = Playhead.init(${init});</script>`;
  const pages: Record<string, string> = {
    // The browser dying before the unload's journal write lands: a put after the flag never does.
    "/record": `<script>const put = IDBObjectStore.prototype.put;
IDBObjectStore.prototype.put = function (...a) { return window.frozen ? {} : put.apply(this, a); };
</script>${sdk}<script>${BURST_SCRIPT}</script>`,
    "/next": sdk,
  };
  const site = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const html = pages[new URL(req.url).pathname];
    if (html === undefined) return new Response("not found", { status: 404 });
    return new Response(`<!doctype html><html><head><meta charset="utf-8">${html}</head></html>`, {
      headers: { "content-type": "text/html; charset=utf-8" },
    });
  });
  const siteUrl = `http://127.0.0.1:${site.addr.port}`;
  const profile = await Deno.makeTempDir({ prefix: "playhead-profile-" });
  let browser: OwnChromium = await ownChromium(profile);
  const tab = () => browser.browser.contexts()[0].newPage();

  try {
    for (const c of CASES) {
      await t.step(c.name, async () => {
        const page = await tab();
        const start = Date.now();
        // A controlled clock: the journal's 2 s write, and no flush, happen when the test says.
        await page.clock.install({ time: start });
        await page.clock.pauseAt(start + 1_000);
        await page.goto(`${siteUrl}/record`);
        await settingsRead(page);
        const sessionId = await page.evaluate(() => (window as unknown as Ph).ph.sessionId);
        const burst = (n: number, from: number) =>
          page.evaluate(([n, from]) => (window as unknown as Ph).burst(n, from), [n, from]);
        await page.evaluate(() => console.error("boom"));
        await burst(30, 0);
        await page.clock.runFor(2_000); // the journal writes m0–m29
        await waitFor(
          async () => (await journal(page, sessionId)).some((e) => e.includes("m29")),
          10_000,
          "the periodic journal write",
        );
        await burst(20, 30); // m30–m49: only the unload has them
        proxy.unload = c.keepalive;
        if (c.journal === "periodic") {
          await page.evaluate(() => (window as unknown as Ph).frozen = true);
        } else {
          // Chromium may end a closed tab's document before the unload's IndexedDB write lands
          // (here, one run in two): the SDK's pagehide runs in the living page, and the tab
          // closes once the write is there.
          await page.evaluate(() => dispatchEvent(new PageTransitionEvent("pagehide")));
          await waitFor(
            async () => (await journal(page, sessionId)).some((e) => e.includes("m49")),
            10_000,
            "the unload's journal write",
          );
        }
        await page.close({ runBeforeUnload: true });
        if (c.keepalive === "stored") {
          await waitFor(
            async () => {
              const batches = await storedBatches(server.db, project.id, sessionId);
              return batches.some((b) => burstIndices(b.json).includes(49));
            },
            10_000,
            "the keepalive bodies stored",
          );
        }
        await browser.kill();
        proxy.unload = null;

        browser = await ownChromium(profile);
        const next = await tab();
        await next.goto(`${siteUrl}/next`);
        await waitFor(
          async () => (await journal(next, sessionId)).length === 0,
          15_000,
          "the journal recovered",
        );
        const stored = (await storedBatches(server.db, project.id, sessionId))
          .flatMap((b) => burstIndices(b.json));
        // Lost before it was sent and before the unload's journal write: the last 2 s go.
        const expected = c.keepalive === "lost" && c.journal === "periodic" ? 30 : 50;
        assert.deepEqual(stored.sort((a, b) => a - b), [...Array(expected).keys()]);
        const session = await sessionRow(server.db, project.id, sessionId);
        assert.equal(session?.error_count, 1, "the error is counted once");
      });
    }
  } finally {
    await browser.kill();
    await ingest.shutdown();
    await site.shutdown();
    await server.close();
    await Deno.remove(profile, { recursive: true });
    await Deno.remove(sdkDir, { recursive: true });
  }
});

type Ph = {
  ph: { sessionId: string };
  burst(n: number, from: number): Promise<void>;
  frozen: boolean;
};
