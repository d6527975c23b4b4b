// Browser test (issue 21): a real page recorded by the served SDK. Rage clicks, dead clicks and
// errors reach the service as markers and session counts, under the privacy rules.

import assert from "node:assert/strict";
import { sdkPage, startHarness, waitFor, withPh } from "./sdk_harness.ts";
import { sessionRow, storedBatches } from "./sdk_readback.ts";

const PAGE = `
<button id="nothing" class="btn primary">Does nothing</button>
<button id="changes" onclick="document.getElementById('out').textContent = 'changed'">Changes</button>
<p id="out"></p>
<div data-service-mask><button id="secret">MaskedLabelSecret</button></div>
<button id="thrower" onclick="throw new Error('ThrownBoom')">Throw</button>
<button id="rejecter" onclick="Promise.reject(new Error('RejectedBoom'))">Reject</button>
<div style="height:2000px"></div>`;

Deno.test("signals e2e: rage and dead clicks, errors, privacy", async () => {
  await using h = await startHarness();
  const project = await h.server.createProject();
  h.page("/app", sdkPage(h, project.key, { flushInterval: 600_000 }, PAGE));
  const { page } = await h.context();
  await page.goto(`${h.pagesUrl}/app`);
  const sessionId = await withPh(page, (ph) => ph.sessionId!);

  // A burst of 4 clicks on the button that does nothing: one rage click of 4, one dead click.
  for (let i = 0; i < 4; i++) await page.click("#nothing", { delay: 10 });
  await page.waitForTimeout(3500);
  // A button that changes the page: no dead click.
  await page.click("#changes");
  // A rage click on a masked element (a dead click as well).
  for (let i = 0; i < 3; i++) await page.click("#secret", { delay: 10 });
  await page.click("#thrower");
  await page.click("#rejecter");
  // The dead-click window (3 s) and the last burst's end (1 s) pass.
  await page.waitForTimeout(3500);
  await withPh(page, (ph) => ph.flush());

  const db = h.server.db;
  const markers = await waitFor(
    async () => {
      const session = await sessionRow(db, project.id, sessionId);
      if (!session) return null;
      const rows = await db.selectFrom("markers").select(["kind", "data"])
        .where("session_id", "=", session.id).where("kind", "<>", "url").orderBy("ts").execute();
      return rows.length >= 5 ? rows : null;
    },
    10_000,
    "signal markers",
  ) ?? [];
  const of = (kind: string) =>
    markers.filter((m) => m.kind === kind).map((m) => m.data as Record<string, unknown>);

  const rage = of("rage_click");
  assert.equal(rage.length, 2, JSON.stringify(markers));
  assert.equal(rage[0].selector, "button#nothing");
  assert.equal(rage[0].text, "Does nothing");
  assert.equal(rage[0].clicks, 4);
  assert.equal(rage[1].selector, "button#secret");
  assert.equal(rage[1].text, "*".repeat("MaskedLabelSecret".length));
  const dead = of("dead_click");
  assert.deepEqual(dead.map((d) => d.selector), ["button#nothing", "button#secret"]);
  const errors = of("error").map((e) => String(e.message));
  assert.equal(errors.length, 2, JSON.stringify(errors));
  assert.match(errors[0], /ThrownBoom/);
  assert.match(errors[1], /RejectedBoom/);

  const session = await sessionRow(db, project.id, sessionId);
  assert.equal(session?.rage_click_count, 2);
  assert.equal(session?.dead_click_count, 2);
  assert.equal(session?.error_count, 2);
  assert.equal(session?.device, "desktop");
  assert.equal(session?.browser, "Chrome");

  // The masked label is asterisks in every stored byte.
  const batches = await storedBatches(db, project.id, sessionId);
  const all = [...batches.map((b) => b.json), JSON.stringify(markers)].join("\n");
  assert.ok(!all.includes("MaskedLabelSecret"), "the masked text leaked");
});
