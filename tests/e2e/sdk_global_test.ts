// Browser test: what a page gets from the snippet alone, as the README writes it in <head>: console
// output during page load is recorded at its own time, and the recorder's methods are on the
// `Playhead` global (no need to keep what `init()` returned).

import assert from "node:assert/strict";
import { sessionRow, storedEvents } from "./sdk_readback.ts";
import { type Harness, startHarness, waitFor } from "./sdk_harness.ts";

const never = 600_000;

/** The snippet as documented: init's answer is not kept. */
function snippetPage(
  h: Harness,
  key: string,
  headScript: string,
  body = "<p>Page</p>",
  options: Record<string, unknown> = {},
): string {
  const init = JSON.stringify({
    apiKey: key,
    endpoint: h.endpoint,
    flushInterval: never,
    ...options,
  });
  return `<!doctype html><html><head><meta charset="utf-8"><title>Snippet page</title>
<script src="${h.server.url}/sdk/v1/playhead.js"></script>
<script>Playhead.init(${init});</script>
<script>${headScript}</script></head><body>${body}</body></html>`;
}

const sessionIdOf = (page: import("playwright-core").Page) =>
  page.evaluate(() =>
    (globalThis as unknown as { Playhead: { instance(): { sessionId: string } } }).Playhead
      .instance().sessionId
  );

Deno.test("sdk e2e: the snippet in <head>", async (t) => {
  await using h = await startHarness();

  await t.step("console calls during page load are recorded, in order, at their time", async () => {
    const project = await h.server.createProject();
    h.page(
      "/boot",
      snippetPage(
        h,
        project.key,
        `console.log("boot log", 1); console.warn("boot warn");`,
        `<p>Page</p><script>console.error("body error")</script>`,
      ),
    );
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/boot`);
    await page.waitForFunction(() => document.readyState === "complete");
    await page.evaluate(() => console.info("after load"));
    const sessionId = await sessionIdOf(page);
    await page.evaluate(() =>
      (globalThis as unknown as { Playhead: { flush(): Promise<void> } }).Playhead.flush()
    );
    const events = (await waitFor(
      async () => {
        const stored = await storedEvents(h.server.db, project.id, sessionId);
        return stored.some((e) => e.type === 6 && JSON.stringify(e.data).includes("after load"))
          ? stored
          : null;
      },
      10_000,
      "the console events",
    ))!;
    const logs = events.filter((e) => e.type === 6).map((e) => {
      const payload = (e.data as { payload: { level: string; payload: string[] } }).payload;
      return { level: payload.level, text: payload.payload.join(" "), at: e.timestamp };
    });
    assert.deepEqual(logs.map((l) => [l.level, l.text]), [
      ["log", '"boot log" 1'],
      ["warn", '"boot warn"'],
      ["error", '"body error"'],
      ["info", '"after load"'],
    ]);
    const snapshot = events.find((e) => e.type === 2)!;
    assert.ok(logs[0].at <= snapshot.timestamp, "the page-load log keeps its own time");
    // Exactly once each: the early watcher hands over to rrweb's without overlap.
    assert.equal(logs.filter((l) => l.text.includes("boot log")).length, 1);
  });

  await t.step("identify, pause, resume, flush and cancel work on the global", async () => {
    const project = await h.server.createProject();
    h.page("/global", snippetPage(h, project.key, ""));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/global`);
    await page.waitForFunction(() => document.readyState === "complete");
    const call = (script: string) => page.evaluate(script);
    await call(`Playhead.identify("user-42", { name: "Ada", plan: "pro" })`);
    await call(`Playhead.pause()`);
    assert.equal(await call(`Playhead.instance().state`), "paused");
    await call(`Playhead.resume()`);
    assert.equal(await call(`Playhead.instance().state`), "recording");
    // A second init() hands back the same recorder, quietly.
    assert.equal(await call(`Playhead.init({}) === Playhead.instance()`), true);
    const sessionId = await sessionIdOf(page);
    await call(`Playhead.flush()`);
    const row = (await waitFor(
      () => sessionRow(h.server.db, project.id, sessionId),
      10_000,
      "the session",
    ))!;
    const user = await h.server.db.selectFrom("tracked_users").select(["external_id", "traits"])
      .where("id", "=", row.tracked_user_id!).executeTakeFirstOrThrow();
    assert.equal(user.external_id, "user-42");
    assert.deepEqual(user.traits, { name: "Ada", plan: "pro" });
    await call(`Playhead.cancel()`);
    await waitFor(
      async () => (await sessionRow(h.server.db, project.id, sessionId)) === null,
      10_000,
      "the cancelled session to be deleted",
    );
  });

  await t.step("hold keeps everything until release(); a second init() says nothing", async () => {
    const project = await h.server.createProject();
    h.page("/held", snippetPage(h, project.key, "", "<p>Held</p>", { hold: true }));
    const { page } = await h.context();
    const said: string[] = [];
    page.on("console", (message) => said.push(`${message.type()}: ${message.text()}`));
    await page.goto(`${h.pagesUrl}/held`);
    await page.waitForFunction(() => document.readyState === "complete");
    const call = (script: string) => page.evaluate(script);
    // Invalid options would be reported: the existing recorder comes back without a word.
    assert.equal(await call(`Playhead.init({ batchSize: "no" }) === Playhead.instance()`), true);
    assert.deepEqual(said, []);
    const sessionId = await sessionIdOf(page);
    // A flush while held has settled, and nothing was sent.
    await call(`Playhead.flush()`);
    assert.equal(await sessionRow(h.server.db, project.id, sessionId), null);
    await call(`Playhead.release()`);
    const events = await waitFor(
      async () => {
        const stored = await storedEvents(h.server.db, project.id, sessionId);
        return stored.length > 0 ? stored : null;
      },
      10_000,
      "the released events",
    );
    assert.ok(events!.some((e) => e.type === 2), "the held full snapshot was sent");
  });
});
