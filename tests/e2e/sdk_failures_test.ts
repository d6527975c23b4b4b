// Browser test: the client's behaviour on 5xx (backoff 1 s / 2 s / 4 s, delivered once, in order),
// on 4xx (dropped and logged, never retried) and with the network down (kept for the next flush).

import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { BURST_SCRIPT, burstIndices, sdkPage, sleep, startHarness, withPh } from "./sdk_harness.ts";
import { storedBatches, storedEvents } from "./sdk_readback.ts";

const never = 600_000;
const burst = (page: Page, n: number, start: number) =>
  page.evaluate(
    ([n, start]) =>
      (globalThis as unknown as { burst(n: number, s: number): Promise<void> }).burst(n, start),
    [n, start],
  );

Deno.test("sdk e2e: failures", async (t) => {
  await using h = await startHarness();

  await t.step("500, 500, 500 then 204: retried after 1, 2 and 4 s and stored once", async () => {
    const project = await h.server.createProject();
    h.page("/f1", sdkPage(h, project.key, { flushInterval: never }, "", BURST_SCRIPT));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/f1`);
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await burst(page, 20, 0);
    h.failNext.push(500, 500, 500);
    await withPh(page, (ph) => ph.flush());
    const sent = h.ingests().filter((r) => r.body.sessionId === sessionId);
    assert.deepEqual(sent.map((r) => r.status), [500, 500, 500, 204]);
    const gaps = sent.slice(1).map((r, i) => r.at - sent[i].at);
    for (const [gap, expected] of gaps.map((g, i) => [g, [1000, 2000, 4000][i]])) {
      assert.ok(
        gap >= expected - 50 && gap < expected + 700,
        `gap ${gap} ms, expected ${expected}`,
      );
    }
    assert.equal(new Set(sent.map((r) => JSON.stringify(r.body))).size, 1, "the same batch");
    const batches = await storedBatches(h.server.db, project.id, sessionId);
    assert.equal(batches.length, 1, "delivered once");
    assert.deepEqual(burstIndices(batches[0].json), [...Array(20).keys()]);
  });

  await t.step("400: dropped and logged, never retried; later events still arrive", async () => {
    const project = await h.server.createProject();
    h.page("/f2", sdkPage(h, project.key, { flushInterval: never }, "", BURST_SCRIPT));
    const { page, console } = await h.context();
    await page.goto(`${h.pagesUrl}/f2`);
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await burst(page, 10, 0);
    h.failNext.push(400);
    await withPh(page, (ph) => ph.flush());
    await sleep(1_500);
    let sent = h.ingests().filter((r) => r.body.sessionId === sessionId);
    assert.deepEqual(sent.map((r) => r.status), [400], "no retry");
    assert.ok(console.some((m) => /^error: \[playhead\] .*HTTP 400/.test(m)), console.join("\n"));
    assert.equal((await storedBatches(h.server.db, project.id, sessionId)).length, 0);

    await burst(page, 5, 10);
    await withPh(page, (ph) => ph.flush());
    sent = h.ingests().filter((r) => r.body.sessionId === sessionId);
    assert.equal(sent.length, 2);
    assert.ok(sent[1].body.metadata, "metadata goes again until a batch carrying it is accepted");
    const stored = await storedEvents(h.server.db, project.id, sessionId);
    assert.deepEqual(burstIndices(JSON.stringify(stored)), [10, 11, 12, 13, 14]);
  });

  await t.step(
    "network down: events are kept and go with the next flush, once, in order",
    async () => {
      const project = await h.server.createProject();
      h.page("/f3", sdkPage(h, project.key, { flushInterval: never }, "", BURST_SCRIPT));
      const { context, page, console } = await h.context();
      await page.goto(`${h.pagesUrl}/f3`);
      const sessionId = await withPh(page, (ph) => ph.sessionId!);
      await burst(page, 10, 0);
      await context.setOffline(true);
      const started = Date.now();
      await withPh(page, (ph) => ph.flush());
      assert.ok(Date.now() - started >= 6_900, "it retried for 1 + 2 + 4 s");
      assert.equal(h.ingests().filter((r) => r.body.sessionId === sessionId).length, 0);
      assert.ok(console.some((m) => /\[playhead\] ingest unreachable/.test(m)), console.join("\n"));
      await context.setOffline(false);
      await burst(page, 5, 10);
      await withPh(page, (ph) => ph.flush());
      const stored = await storedEvents(h.server.db, project.id, sessionId);
      assert.deepEqual(burstIndices(JSON.stringify(stored)), [...Array(15).keys()]);
      assert.equal(
        new Set(stored.map((e) => JSON.stringify(e))).size,
        stored.length,
        "no duplicate",
      );
      assert.ok(stored.some((e) => e.type === 2), "the snapshot taken before the outage arrived");
    },
  );
});
