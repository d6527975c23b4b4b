// Browser tests of what a team doing triage meets first, against the served SDK and the real
// service: a visit is listed within seconds, a killed browser loses nothing it had journaled,
// errors carry their stack, and click signals are dated when they happened.
import assert from "node:assert/strict";
import { launchChromium } from "@/tests/helpers/browser.ts";
import { call } from "@/tests/helpers/auth.ts";
import { waitFor } from "./sdk_harness.ts";
import { sessionMarkers, sessionRow, storedBatches } from "./sdk_readback.ts";
import { ownChromium, triageWorld } from "./triage_world.ts";
import { journalTexts } from "@/tests/helpers/journal_texts.ts";
import { recent } from "@/tests/helpers/times.ts";

type Ph = { ph: { sessionId: string; flush(): Promise<void> } };
const T0 = recent(Date.parse("2026-03-02T10:00:00Z"));

Deno.test("triage e2e: the first batch goes 5 s after recording starts; the visit is listed", async () => {
  await using w = await triageWorld();
  w.page("/shop", `<h1>Shop front</h1>`);
  await using browser = await launchChromium();
  const page = await browser.newPage();
  // A controlled clock: the SDK's timers run only when the test moves it.
  await page.clock.install({ time: T0 });
  await page.clock.pauseAt(T0 + 1_000);
  await page.goto(`${w.siteUrl}/shop`);
  const sessionId = await page.evaluate(() => (window as unknown as Ph).ph.sessionId);
  await page.clock.runFor(4_999);
  // Recorded at 4,999 ms, after any batch a timer had cut before 5 s: the first batch holds both
  // the page's first snapshot and this, or a batch went early.
  await page.evaluate(() => document.body.insertAdjacentHTML("beforeend", "<p>At 4,999 ms</p>"));
  await page.clock.runFor(1);
  const listed = await waitFor(
    async () => {
      const res = await call(w.server.t.app, "GET", "/api/sessions", { cookie: w.cookie });
      const body = await res.json();
      return body.data.find((s: { externalId: string }) => s.externalId === sessionId) ?? null;
    },
    10_000,
    "the session in /api/sessions",
  );
  assert.equal(listed.externalId, sessionId);
  const batches = await storedBatches(w.server.t.db.kysely, w.projectId, sessionId);
  assert.equal(batches.length, 1, "one first batch");
  assert.ok(batches[0].json.includes("Shop front"), "the first snapshot in the first batch");
  assert.ok(batches[0].json.includes("At 4,999 ms"), "no batch before 5 s");
  assert.equal(w.proxy.ingests, 1);
});

Deno.test("triage e2e: click signals at their clicks, errors with the page's own stack", async () => {
  await using w = await triageWorld();
  w.page(
    "/pay",
    `<button id="nothing">Does nothing</button>
<button id="thrower" onclick="payNow()">Pay</button>
<button id="rejecter" onclick="Promise.reject(new Error('Declined for order 5521'))">Reject</button>
<script>let tries = 0;
function payNow() { throw new Error("Card 4242 refused, attempt " + (++tries) + "0917"); }
addEventListener("unhandledrejection", () => window.rejected = true);</script>`,
  );
  await using browser = await launchChromium();
  const page = await browser.newPage();
  await page.clock.install({ time: T0 });
  await page.clock.pauseAt(T0 + 1_000);
  await page.goto(`${w.siteUrl}/pay?token=secret-query`);
  const sessionId = await page.evaluate(() => (window as unknown as Ph).ph.sessionId);
  await page.clock.runFor(100);
  const clickAt = await page.evaluate(() => Date.now());
  // A burst of 3 clicks 200 ms apart: a rage click from the first, and a dead click.
  for (let i = 0; i < 3; i++) {
    await page.click("#nothing");
    await page.clock.runFor(200);
  }
  await page.clock.runFor(3_500); // past the dead-click window and the burst's end
  await page.click("#thrower");
  await page.click("#thrower"); // the same error but for its number
  await page.click("#rejecter");
  // identified after its signals: they count the user all the same
  await page.evaluate(() =>
    (window as unknown as { ph: Ph["ph"] & { identify(id: string): void } }).ph.identify("ada")
  );
  await page.waitForFunction(() => (window as unknown as { rejected?: boolean }).rejected);
  await page.clock.runFor(100);
  await page.evaluate(() => (window as unknown as Ph).ph.flush());

  const db = w.server.t.db.kysely;
  let seen: unknown[] = [];
  const markers = await waitFor(
    async () => {
      const rows = await sessionMarkers(db, w.projectId, sessionId);
      seen = rows;
      return rows.filter((m) => m.kind !== "url" && m.kind !== "identity").length >= 5
        ? rows
        : null;
    },
    10_000,
    "the signal markers",
  ).catch((e) => {
    throw new Error(`${e.message}: ${JSON.stringify(seen)} after ${w.proxy.ingests} ingests`);
  }) ?? [];
  const of = (kind: string) => markers.filter((m) => m.kind === kind);
  const [dead] = of("dead_click");
  const [rage] = of("rage_click");
  assert.ok(Math.abs(Number(dead.ts) - clickAt) <= 300, `dead click at ${dead.ts}, ${clickAt}`);
  assert.equal(Number(rage.ts), clickAt);
  assert.deepEqual(
    [(dead.data as Record<string, unknown>).ended, (dead.data as Record<string, unknown>).waitMs],
    ["timeout", 3000],
  );
  assert.equal((rage.data as Record<string, unknown>).clicks, 3);

  const [thrown, , rejected] = of("error").map((m) => m.data as Record<string, unknown>);
  assert.match(String(thrown.message), /Card 4242 refused/);
  const stack = String(thrown.stack);
  assert.match(stack, /^payNow \(http:\/\/127\.0\.0\.1:\d+\/pay:\d+:\d+\)/);
  assert.ok(!stack.includes("playhead.js"), "the SDK's own frames are left out");
  assert.ok(!stack.includes("secret-query"), "frame URLs keep no query");
  assert.equal(thrown.source, `${w.siteUrl}/pay`);
  assert.ok(Number(thrown.line) > 0 && Number(thrown.column) > 0);
  assert.match(String(rejected.message), /Declined for order 5521/);
  assert.match(String(rejected.stack), /\/pay:\d+:\d+/);

  const insights = await waitFor(
    async () => {
      const res = await call(w.server.t.app, "GET", "/api/insights?range=7d", { cookie: w.cookie });
      const body = await res.json();
      return body.rageClicks?.[0]?.users === 1 ? body : null;
    },
    10_000,
    "the rage click credited to the user identified after it",
  );
  assert.equal(insights.deadClicks[0].users, 1);
  const groups = insights.errors.filter((e: { message: string }) => /Card/.test(e.message));
  assert.equal(groups.length, 1, JSON.stringify(insights.errors));
  assert.equal(groups[0].message, "Uncaught Error: Card 4242 refused, attempt 20917");
  assert.equal(groups[0].users, 1);
});

Deno.test("triage e2e: a browser killed right after its tab closed loses nothing journaled", async () => {
  await using w = await triageWorld();
  w.page("/shop", `<a id="go" href="/checkout">Checkout</a>`);
  w.page(
    "/checkout",
    `<button id="pay" onclick="this.textContent = 'Paid in full'">Pay</button>`,
    `ph.identify("ada", { plan: "pro" });`,
  );
  const profile = await Deno.makeTempDir({ prefix: "playhead-profile-" });
  const db = w.server.t.db.kysely;
  try {
    const first = await ownChromium(profile);
    const page = await first.browser.contexts()[0].newPage();
    await page.goto(`${w.siteUrl}/shop`);
    const sessionId = await page.evaluate(() => (window as unknown as Ph).ph.sessionId);
    await waitFor(() => sessionRow(db, w.projectId, sessionId), 15_000, "the first batch");

    // From here the service is unreachable: the checkout page reaches only the journal.
    w.proxy.mode = "down";
    await page.click("#go");
    await page.waitForURL(/checkout/);
    await page.click("#pay");
    await waitFor(
      () =>
        journalTexts(page).then((entries) => entries.some((e) => e.text.includes("Paid in full"))),
      10_000,
      "the checkout page's journal",
    );
    await page.close(); // the tab closes (pagehide) ...
    await first.kill(); // ... and the browser is killed right after

    // The next visit, in a new tab of the restarted browser: the service answers, but the
    // answer to the first upload is lost, so the SDK sends it again.
    w.proxy.mode = "lossy";
    const second = await ownChromium(profile);
    try {
      const next = await second.browser.contexts()[0].newPage();
      await next.goto(`${w.siteUrl}/shop`);
      const markers = await waitFor(
        async () => {
          const rows = await sessionMarkers(db, w.projectId, sessionId);
          return rows.some((m) => m.kind === "identity") ? rows : null;
        },
        20_000,
        "the checkout page's markers",
      ) ?? [];
      const pathnames = markers.filter((m) => m.kind === "url")
        .map((m) => (m.data as { pathname: string }).pathname);
      assert.ok(pathnames.includes("/checkout"), JSON.stringify(pathnames));
      const session = await sessionRow(db, w.projectId, sessionId);
      assert.ok(session?.tracked_user_id, "the session is linked to its identified user");
      const batches = await storedBatches(db, w.projectId, sessionId);
      const events = batches.flatMap((b) => b.events.map((e) => JSON.stringify(e)));
      assert.ok(events.some((e) => e.includes("Paid in full")));
      assert.equal(new Set(events).size, events.length, "no event is stored twice");
      assert.ok(w.proxy.lost >= 1, "a batch was stored and its answer lost");
    } finally {
      await second.kill();
    }
  } finally {
    await Deno.remove(profile, { recursive: true });
  }
});
