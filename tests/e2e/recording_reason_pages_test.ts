// Browser test of why a session was recorded, on the pages (docs/decisions.md "Capture control"):
// the sessions list marks a triggered session briefly and leaves a sampled one plain; the replay
// page says why and marks the trigger on the seek bar. Screenshots go to .scratch/e2e/.
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { artifactPath, launchChromium } from "@/tests/helpers/browser.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, recordedEvents } from "@/tests/helpers/ingest.ts";
import { startPagesServer } from "@/tests/helpers/pages.ts";

const T0 = Date.now() - 10 * 60_000;

async function hydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("fresh-island")]
      .every((island) => island.getAttribute("data-hydrated") === "true")
  );
}

Deno.test("recording reason pages: the list's badge, the replay's sentence and trigger tick", async () => {
  await using server = await startPagesServer();
  const db = server.t.db.kysely;
  const viewer = await signedInUser(server.t, { role: "VIEWER" });
  const project = await insertProject(db, { organizationId: viewer.organizationId, name: "Shop" });
  const post = async (metadata: Record<string, unknown>) => {
    const sessionId = crypto.randomUUID();
    const events = [
      ...recordedEvents(60, T0),
      {
        type: 6,
        data: { plugin: "rrweb/console@1", payload: { level: "error", payload: ['"Boom"'] } },
        timestamp: T0 + 40_000,
      },
    ];
    const res = await fetch(`${server.url}/api/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-service-public-key": project.key },
      body: JSON.stringify({ sessionId, events, metadata }),
    });
    assert.equal(res.status, 204);
    return (await db.selectFrom("sessions").select("id").where("external_id", "=", sessionId)
      .executeTakeFirstOrThrow()).id;
  };
  const triggered = await post({ ...METADATA, recordingReason: "error", triggeredAt: T0 + 40_000 });
  const sampled = await post(METADATA);

  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = viewer.cookie.split("=");
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();

    await page.goto(`${server.url}/sessions`);
    await hydrated(page);
    const badge = (id: string) => page.locator(`tr[data-session="${id}"] .badge-reason`);
    assert.equal((await badge(triggered).textContent())?.trim(), "⚡ error");
    assert.equal(await badge(triggered).getAttribute("title"), "Recorded because of an error");
    assert.equal(await badge(sampled).count(), 0);
    await page.screenshot({ path: await artifactPath("recording-reason-list.png") });

    // The "Recorded" filter: one trigger, any trigger, or from the start.
    const listed = async () =>
      await page.locator("tr[data-session]").evaluateAll((trs) =>
        trs.map((tr) => tr.getAttribute("data-session"))
      );
    for (
      const [choice, expected] of [
        ["error", [triggered]],
        ["error,rage_click,dead_click,manual", [triggered]],
        ["rage_click", []],
        ["sampled", [sampled]],
      ] as const
    ) {
      await page.getByLabel("Recorded").selectOption(choice);
      await page.getByRole("button", { name: "Apply" }).click();
      await page.waitForURL((url) => url.searchParams.get("reason") === choice);
      assert.deepEqual(await listed(), expected, choice);
    }

    await page.goto(`${server.url}/replays/${triggered}`);
    await hydrated(page);
    const facts = await page.locator(".session-facts").textContent();
    assert.match(facts ?? "", /Triggered by an error at 40 s/);
    const tick = page.locator('.seek-tick[data-kind="trigger"]');
    await tick.waitFor({ state: "attached" });
    assert.equal(await tick.getAttribute("title"), "Recording triggered: error");
    const left = Number.parseFloat(await tick.evaluate((el) => (el as HTMLElement).style.left));
    assert.ok(left > 0 && left < 100, `the tick sits inside the bar: ${left}%`);
    await page.screenshot({ path: await artifactPath("recording-reason-replay.png") });

    await page.goto(`${server.url}/replays/${sampled}`);
    await hydrated(page);
    assert.match(
      await page.locator(".session-facts").textContent() ?? "",
      /Sampled, from its start/,
    );
    assert.equal(await page.locator('.seek-tick[data-kind="trigger"]').count(), 0);
  } finally {
    await browser.close();
  }
});
