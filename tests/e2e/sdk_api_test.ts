// Browser test: SPA navigation markers, identify before and after start, pause/resume,
// hold/release, cancel, and invalid options.

import assert from "node:assert/strict";
import { sdkPage, sleep, startHarness, waitFor, withPh } from "./sdk_harness.ts";
import { customEvents, sessionMarkers, sessionRow, storedEvents } from "./sdk_readback.ts";

const never = 600_000;

Deno.test("sdk e2e: api", async (t) => {
  await using h = await startHarness();

  await t.step(
    "SPA navigation: service:url then a full snapshot; not for hash or query",
    async () => {
      const project = await h.server.createProject();
      h.page("/spa", sdkPage(h, project.key, { flushInterval: never }, "<main>home</main>"));
      const { page } = await h.context();
      await page.goto(`${h.pagesUrl}/spa`);
      await page.evaluate(async () => {
        const tick = () => new Promise((r) => setTimeout(r, 20));
        history.pushState({}, "", "/spa/one");
        await tick();
        history.pushState({}, "", "/spa/one?tab=2");
        await tick();
        location.hash = "#details";
        await tick();
        history.replaceState({}, "", "/spa/two");
        await tick();
        history.back();
        await tick();
      });
      await page.waitForURL(/\/spa\/one\?tab=2$/);
      const sessionId = await withPh(page, (ph) => ph.sessionId!);
      await withPh(page, (ph) => ph.flush());
      const events = await storedEvents(h.server.db, project.id, sessionId);
      const urls = customEvents(events, "service:url").map((e) => e.data.payload);
      assert.deepEqual(urls, [
        { url: `${h.pagesUrl}/spa/one`, pathname: "/spa/one" },
        { url: `${h.pagesUrl}/spa/two`, pathname: "/spa/two" },
        { url: `${h.pagesUrl}/spa/one?tab=2`, pathname: "/spa/one" },
      ]);
      for (const marker of customEvents(events, "service:url")) {
        const next = events.slice(events.indexOf(marker) + 1).find((e) => e.type !== 3);
        assert.ok(next && (next.type === 4 || next.type === 2), "a snapshot follows");
        const snapshot = events.slice(events.indexOf(marker) + 1).find((e) => e.type === 2);
        assert.ok(snapshot && snapshot.timestamp - marker.timestamp < 1000);
      }
      const markers = await sessionMarkers(h.server.db, project.id, sessionId);
      assert.deepEqual(
        markers.filter((m) => m.kind === "url").map((m) =>
          (m.data as { pathname: string }).pathname
        ),
        ["/spa", "/spa/one", "/spa/two", "/spa/one"],
      );
    },
  );

  await t.step("identify before start travels in the first batch's metadata", async () => {
    const project = await h.server.createProject();
    h.page("/id1", sdkPage(h, project.key, { autoStart: false, flushInterval: never }, "<p>x</p>"));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/id1`);
    assert.equal(await withPh(page, (ph) => ph.state), "idle");
    await withPh(page, (ph) => ph.identify("user-before", { plan: "pro" }));
    await withPh(page, (ph) => ph.start());
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await withPh(page, (ph) => ph.flush());
    const first = h.ingests().find((r) => r.body.sessionId === sessionId)!;
    assert.deepEqual(first.body.metadata?.userIdentity, {
      userId: "user-before",
      traits: { plan: "pro" },
    });
    const events = await storedEvents(h.server.db, project.id, sessionId);
    assert.equal(customEvents(events, "service:identity").length, 0);
    const session = await sessionRow(h.server.db, project.id, sessionId);
    const user = await h.server.db.selectFrom("tracked_users").selectAll()
      .where("id", "=", session!.tracked_user_id!).executeTakeFirstOrThrow();
    assert.equal(user.external_id, "user-before");
    assert.deepEqual(user.traits, { plan: "pro" });
  });

  await t.step("identify mid-session: a service:identity event and metadata again", async () => {
    const project = await h.server.createProject();
    h.page("/id2", sdkPage(h, project.key, { flushInterval: never }, "<p>x</p>"));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/id2`);
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await withPh(page, (ph) => ph.flush());
    await withPh(page, (ph) => ph.identify("user-after", { email: "a@b.test" }));
    await page.evaluate(() => document.body.append("more"));
    await withPh(page, (ph) => ph.flush());
    const sent = h.ingests().filter((r) => r.body.sessionId === sessionId);
    assert.equal(sent.length, 2);
    assert.equal(sent[0].body.metadata?.userIdentity, undefined);
    assert.deepEqual(sent[1].body.metadata?.userIdentity, {
      userId: "user-after",
      traits: { email: "a@b.test" },
    });
    const events = await storedEvents(h.server.db, project.id, sessionId);
    assert.deepEqual(customEvents(events, "service:identity").map((e) => e.data.payload), [
      { userId: "user-after", traits: { email: "a@b.test" } },
    ]);
    const markers = await sessionMarkers(h.server.db, project.id, sessionId);
    assert.equal(markers.filter((m) => m.kind === "identity").length, 1);
    assert.ok((await sessionRow(h.server.db, project.id, sessionId))!.tracked_user_id);
  });

  await t.step("pause records nothing until resume, which takes a fresh snapshot", async () => {
    const project = await h.server.createProject();
    h.page("/pause", sdkPage(h, project.key, { flushInterval: never }, "<p id=p>start</p>"));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/pause`);
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await withPh(page, (ph) => ph.pause());
    assert.equal(await withPh(page, (ph) => ph.state), "paused");
    await page.evaluate(() => {
      document.getElementById("p")!.textContent = "while-paused";
      console.log("log-while-paused");
    });
    await sleep(50);
    await withPh(page, (ph) => ph.resume());
    assert.equal(await withPh(page, (ph) => ph.state), "recording");
    await page.evaluate(() => (document.getElementById("p")!.textContent = "after-resume"));
    await sleep(50);
    await withPh(page, (ph) => ph.flush());
    const events = await storedEvents(h.server.db, project.id, sessionId);
    const json = JSON.stringify(events);
    assert.ok(json.includes("after-resume"));
    assert.ok(!json.includes("log-while-paused"));
    assert.equal(events.filter((e) => e.type === 2).length, 2, "one snapshot per start");
    // The paused change is visible only through the resume snapshot, not as a mutation.
    const mutations = events.filter((e) => e.type === 3 && JSON.stringify(e).includes("while-"));
    assert.equal(mutations.length, 0);
  });

  await t.step("hold buffers without sending until release", async () => {
    const project = await h.server.createProject();
    h.page("/hold", sdkPage(h, project.key, { hold: true, flushInterval: 100 }, "<p>held</p>"));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/hold`);
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await page.evaluate(() => document.body.append("more"));
    await sleep(600);
    assert.equal(h.ingests().filter((r) => r.body.sessionId === sessionId).length, 0);
    assert.equal(await sessionRow(h.server.db, project.id, sessionId), null);
    await withPh(page, (ph) => ph.release());
    const events = await storedEvents(h.server.db, project.id, sessionId);
    assert.ok(events.some((e) => e.type === 2), "the held snapshot arrives");
    await page.evaluate(() => document.body.append("after release"));
    await waitFor(
      () => h.ingests().filter((r) => r.body.sessionId === sessionId).length >= 2,
      3_000,
      "interval flushes after release",
    );
  });

  await t.step("cancel deletes the session; a cancel before any batch is a no-op", async () => {
    const project = await h.server.createProject();
    h.page("/cancel", sdkPage(h, project.key, { flushInterval: never }, "<p>c</p>"));
    const { page } = await h.context();
    await page.goto(`${h.pagesUrl}/cancel`);
    const sessionId = await withPh(page, (ph) => ph.sessionId!);
    await withPh(page, (ph) => ph.flush());
    assert.ok(await sessionRow(h.server.db, project.id, sessionId));
    await withPh(page, (ph) => ph.cancel());
    assert.equal(await withPh(page, (ph) => ph.state), "idle");
    assert.equal(await sessionRow(h.server.db, project.id, sessionId), null);
    const cancel = h.seen.find((r) => r.path === "/api/sessions/cancel")!;
    assert.equal(cancel.status, 204);
    assert.deepEqual(JSON.parse(cancel.text), { sessionId });
    await page.evaluate(() => document.body.append("after cancel"));
    await withPh(page, (ph) => ph.flush());
    assert.notEqual(await withPh(page, (ph) => ph.sessionId), sessionId, "a new session id");

    const { page: early } = await h.context();
    await early.goto(`${h.pagesUrl}/cancel`);
    const earlyId = await withPh(early, (ph) => ph.sessionId!);
    await withPh(early, (ph) => ph.cancel());
    await withPh(early, (ph) => ph.flush());
    await sleep(300);
    const earlyRequests = h.seen.filter((r) => r.text.includes(earlyId));
    assert.deepEqual(earlyRequests.map((r) => [r.path, r.status]), [["/api/sessions/cancel", 204]]);
    assert.equal(await sessionRow(h.server.db, project.id, earlyId), null);
  });

  await t.step("invalid options fail loudly in the console and record nothing", async () => {
    const project = await h.server.createProject();
    h.page("/bad", sdkPage(h, "pk_not_a_key", { flushInterval: "soon" }, "<p>bad</p>"));
    const before = h.seen.length;
    const { page, console } = await h.context();
    await page.goto(`${h.pagesUrl}/bad`);
    await sleep(300);
    assert.ok(console.some((m) => m.startsWith("error: [playhead] invalid options")));
    assert.ok(console.some((m) => /apiKey/.test(m) && /flushInterval/.test(m)));
    assert.equal(await withPh(page, (ph) => ph.state), "idle");
    assert.equal(h.seen.length, before);
    void project;
  });
});
