// Browser test: leaving a page delivers a gzipped keepalive flush within the ~64 KB budget; what
// does not fit arrives from the next page of the same session; nothing is lost or duplicated.

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import {
  BURST_SCRIPT,
  burstIndices,
  sdkPage,
  sleep,
  startHarness,
  waitFor,
  withPh,
} from "./sdk_harness.ts";
import { sessionMarkers, storedBatches, storedEvents } from "./sdk_readback.ts";

const never = 600_000;
// Full referrers let the test tell which page sent each request.
const REFERRER = `<meta name="referrer" content="unsafe-url">`;
const burst = (page: Page, n: number, start: number, noise = 0) =>
  page.evaluate(
    ([n, start, noise]) =>
      (globalThis as unknown as { burst(n: number, s: number, z: number): Promise<void> })
        .burst(n, start, noise),
    [n, start, noise],
  );

Deno.test("sdk e2e: unload", async (t) => {
  await using h = await startHarness();

  await t.step(
    "navigating away: keepalive flush, overflow from the next page, no duplicates",
    async () => {
      const project = await h.server.createProject();
      const options = { flushInterval: never };
      h.page("/mpa/one", sdkPage(h, project.key, options, REFERRER, BURST_SCRIPT));
      h.page("/mpa/two", sdkPage(h, project.key, options, REFERRER, BURST_SCRIPT));
      const { page } = await h.context();
      // The unload compressor loads once the session may send (sdk/lazy_modules.ts).
      const compressor = page.waitForResponse((r) => r.url().includes("/sdk/playhead-deflate-"));
      await page.goto(`${h.pagesUrl}/mpa/one`);
      const sessionId = await withPh(page, (ph) => ph.sessionId!);
      assert.equal((await compressor).status(), 200);
      // ~300 KB of incompressible text: far more than one keepalive budget.
      await burst(page, 300, 0, 750);
      assert.equal(h.ingests().length, 0, "nothing sent before leaving");
      await page.goto(`${h.pagesUrl}/mpa/two`);
      assert.equal(await withPh(page, (ph) => ph.sessionId), sessionId, "one session across pages");
      await burst(page, 5, 300);
      await withPh(page, (ph) => ph.flush());

      const fromOne = h.seen.filter((r) => r.headers.get("referer")?.endsWith("/mpa/one"));
      const fromTwo = h.seen.filter((r) => r.headers.get("referer")?.endsWith("/mpa/two"));
      assert.ok(fromOne.length >= 1, "the unload flush arrived");
      assert.ok(
        fromOne.every((r) => r.headers.get("content-encoding") === "gzip"),
        "always gzipped",
      );
      const budget = fromOne.reduce((n, r) => n + r.raw.length, 0);
      assert.ok(budget <= 64 * 1024, `${budget} bytes of keepalive bodies`);
      assert.ok(fromOne.every((r) => r.status === 204));
      for (const r of h.seen) {
        const indices = burstIndices(r.text);
        assert.deepEqual(indices, [...indices].sort((a, b) => a - b), "each request is in order");
      }
      // The overflow went first from the next page.
      const firstFromTwo = burstIndices(fromTwo[0].text);
      assert.ok(
        firstFromTwo.length > 0 && firstFromTwo[0] < 300,
        "page two sends the overflow first",
      );

      await waitFor(() => h.seen.every((r) => r.status !== 0), 5_000, "responses");
      const stored = await storedEvents(h.server.db, project.id, sessionId);
      // Keepalive posts travel concurrently, so same-millisecond events may land in any batch
      // order: compare as a multiset (each request is in order, checked above).
      const all = burstIndices(JSON.stringify(stored)).sort((a, b) => a - b);
      assert.deepEqual(all, [...Array(305).keys()], "every event, exactly once");
      assert.equal(
        new Set(stored.map((e) => JSON.stringify(e))).size,
        stored.length,
        "no duplicate",
      );
      const sessions = await h.server.db.selectFrom("sessions").select("external_id")
        .where("project_id", "=", project.id).execute();
      assert.deepEqual(sessions.map((s) => s.external_id), [sessionId]);
      const urls = (await sessionMarkers(h.server.db, project.id, sessionId))
        .filter((m) => m.kind === "url").map((m) => (m.data as { pathname: string }).pathname);
      assert.deepEqual(urls, ["/mpa/one", "/mpa/two"]);
    },
  );

  await t.step("closing the tab delivers the keepalive flush", async () => {
    const project = await h.server.createProject();
    h.page("/close", sdkPage(h, project.key, { flushInterval: never }, "", BURST_SCRIPT));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/close`);
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await burst(page, 25, 0);
    await page.close({ runBeforeUnload: true });
    await waitFor(
      async () => (await storedBatches(h.server.db, project.id, sessionId)).length > 0,
      5_000,
      "the keepalive batch",
    );
    await sleep(200);
    const stored = await storedEvents(h.server.db, project.id, sessionId);
    assert.deepEqual(burstIndices(JSON.stringify(stored)), [...Array(25).keys()]);
  });
});
