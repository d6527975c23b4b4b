// Browser test: batchSize triggers a flush, requests carry at most 500 events in order, and the
// 10,000-event ceiling drops the oldest events.

import assert from "node:assert/strict";
import {
  BURST_SCRIPT,
  burstIndices,
  sdkPage,
  settingsRead,
  sleep,
  startHarness,
  waitFor,
  withPh,
} from "./sdk_harness.ts";
import { storedEvents } from "./sdk_readback.ts";

const never = 600_000;

Deno.test("sdk e2e: batching", async (t) => {
  await using h = await startHarness();

  await t.step("reaching batchSize flushes without waiting for the interval", async () => {
    const project = await h.server.createProject();
    h.page(
      "/b1",
      sdkPage(h, project.key, { batchSize: 100, flushInterval: never }, "", BURST_SCRIPT),
    );
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/b1`);
    await settingsRead(page); // before them the SDK sends nothing, whatever it buffered
    await page.evaluate(() =>
      (globalThis as unknown as { burst(n: number): Promise<void> }).burst(150)
    );
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await waitFor(() => h.ingests().some((r) => r.body.sessionId === sessionId), 5_000, "a flush");
    await sleep(300);
    const sent = h.ingests().filter((r) => r.body.sessionId === sessionId);
    assert.deepEqual(sent.map((r) => r.body.events.length), [100]);
  });

  await t.step("a 2,000-event buffer leaves as four requests of 500, in order", async () => {
    const project = await h.server.createProject();
    h.page("/b2", sdkPage(h, project.key, { flushInterval: never }, "", BURST_SCRIPT));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/b2`);
    await settingsRead(page);
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await page.evaluate(() =>
      (globalThis as unknown as { burst(n: number): Promise<void> }).burst(2_100)
    );
    // Answered, not only seen: on a loaded machine the last insert can outlast a fixed sleep.
    await waitFor(
      () => {
        const sent = h.ingests().filter((r) => r.body.sessionId === sessionId);
        return sent.length >= 4 && sent.every((r) => r.status !== 0);
      },
      10_000,
      "four answered requests",
    );
    await sleep(300);
    const sent = h.ingests().filter((r) => r.body.sessionId === sessionId);
    assert.deepEqual(sent.map((r) => r.body.events.length), [500, 500, 500, 500]);
    assert.ok(sent.every((r) => r.status === 204 && r.gzipped));
    const stamps = sent.flatMap((r) => r.body.events.map((e) => e.timestamp));
    assert.deepEqual(stamps, [...stamps].sort((a, b) => a - b), "requests went out in order");
    const indices = burstIndices(JSON.stringify(sent.map((r) => r.body.events)));
    assert.deepEqual(indices, [...indices].sort((a, b) => a - b));
    const stored = await storedEvents(h.server.db, project.id, sessionId);
    assert.equal(stored.length, 2_000);
  });

  await t.step("past 10,000 buffered events the oldest are dropped", async () => {
    const project = await h.server.createProject();
    h.page("/b3", sdkPage(h, project.key, { hold: true, flushInterval: never }, "", BURST_SCRIPT));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/b3`);
    await settingsRead(page);
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await page.evaluate(() =>
      (globalThis as unknown as { burst(n: number): Promise<void> }).burst(10_300)
    );
    assert.equal(h.ingests().filter((r) => r.body.sessionId === sessionId).length, 0);
    await withPh(page, (ph) => ph.release());
    const sent = h.ingests().filter((r) => r.body.sessionId === sessionId);
    assert.equal(sent.length, 20);
    assert.ok(sent.every((r) => r.body.events.length === 500));
    const stored = await storedEvents(h.server.db, project.id, sessionId);
    assert.equal(stored.length, 10_000);
    assert.ok(!stored.some((e) => e.type === 2 || e.type === 4), "the first snapshot was dropped");
    const indices = burstIndices(JSON.stringify(stored));
    assert.equal(indices.at(-1), 10_299, "the newest events were kept");
    assert.ok(indices[0] > 0, "the oldest events were dropped");
    assert.deepEqual(indices, Array.from({ length: indices.length }, (_, i) => indices[0] + i));
  });
});
