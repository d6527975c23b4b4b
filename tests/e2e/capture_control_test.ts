// Browser tests of capture control (docs/decisions.md "Capture control"): the served SDK against a
// real server, with the project's recording settings set in the database and every ingest request
// counted in the browser. Long visits run on Playwright's controlled clock (page.clock), never on
// real waiting.

import assert from "node:assert/strict";
import type { BrowserContext, Page } from "playwright-core";
import { isSampled } from "@/sdk/control/sampling.ts";
import { recordingColumns } from "@/core/projects/recording.ts";
import {
  DEFAULT_RECORDING,
  type RecordingSettings,
  type RecordingTrigger,
} from "@/core/projects/recording_limits.ts";
import { startSession } from "@/http/session.ts";
import { insertMembership, insertUser } from "@/tests/helpers/factories.ts";
import {
  type Harness,
  sdkPage,
  settingsRead,
  startHarness,
  waitFor,
  withPh,
} from "./sdk_harness.ts";
import { sessionMarkers, sessionRow, storedBatches, storedEvents } from "./sdk_readback.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(Date.UTC(2026, 10, 27, 9, 0, 0));
const TICKER = `let n = 0; setInterval(() => {
  const p = document.getElementById("tick"); if (p) p.textContent = "tick " + (++n);
}, 1000);`;
const BODY = `<p id="tick">ShopText</p>
<button id="thrower" onclick="throw new Error('Boom at forty')">Throw</button>
<button id="rage">Rage here</button>`;

interface Visit {
  context: BrowserContext;
  page: Page;
  ingests: () => number;
  configs: () => number;
}

/** Sets the project's recording settings (the defaults but for `s`). */
async function settings(h: Harness, projectId: string, s: Partial<RecordingSettings>) {
  await h.server.db.updateTable("projects")
    .set(recordingColumns({ ...DEFAULT_RECORDING, ...s }))
    .where("id", "=", projectId).execute();
}

/** A fresh browser context counting its requests to the service (preflights aside). */
async function open(
  h: Harness,
  session?: { id: string; key: string },
  clock?: number,
): Promise<Visit> {
  const { context, page } = await h.context();
  let ingests = 0, configs = 0;
  context.on("request", (r) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === "POST" && path === "/api/ingest") ingests++;
    if (r.method() === "GET" && path === "/api/sdk/config") configs++;
  });
  if (session) {
    // The SDK's name for the tab's session of this key (sdk/session_id.ts).
    const name = JSON.stringify(`playhead:session@${session.key}`);
    await context.addInitScript(`sessionStorage.getItem(${name}) ||
      sessionStorage.setItem(${name}, ${JSON.stringify(session.id)})`);
  }
  if (clock !== undefined) {
    // Paused from the start: the page's time moves only when the test says so.
    await page.clock.install({ time: clock - 1_000 });
    await page.clock.pauseAt(clock);
  }
  return { context, page, ingests: () => ingests, configs: () => configs };
}

/** Loads `path` and waits until the SDK has read its settings (it then decides at once). */
async function load(v: Visit, url: string) {
  const seen = v.configs();
  await v.page.goto(url);
  await waitFor(() => v.configs() > seen, 10_000, "the settings request");
  await settingsRead(v.page);
}

Deno.test("capture control e2e: sampling, minimum duration, URL rules and triggers", async (t) => {
  await using h = await startHarness();
  const project = await h.server.createProject();
  const shop = `${h.pagesUrl}/shop`;
  for (const path of ["/shop", "/admin/secret", "/other"]) {
    const body = path === "/admin/secret" ? `<p>TopSecretText</p>` : BODY;
    h.page(path, sdkPage(h, project.key, { flushInterval: 600_000 }, body, TICKER));
  }
  const db = h.server.db;

  await t.step(
    "sampleRate 0.5: 25-75 % of 60 fresh sessions stored, each as its id's hash says",
    async () => {
      await settings(h, project.id, { sampleRate: 0.5 });
      const stored: string[] = [];
      for (let i = 0; i < 60; i++) {
        const v = await open(h);
        await load(v, shop);
        await withPh(v.page, (ph) => ph.flush());
        const id = await withPh(v.page, (ph) => ph.sessionId!);
        if (v.ingests() > 0) stored.push(id);
        assert.equal(v.ingests() > 0, isSampled(id, 0.5), `session ${id}`);
        await v.context.close();
      }
      assert.ok(stored.length >= 15 && stored.length <= 45, `${stored.length} of 60 stored`);
      const rows = await db.selectFrom("sessions").select("external_id")
        .where("project_id", "=", project.id).execute();
      assert.deepEqual(rows.map((r) => r.external_id).sort(), stored.sort());
    },
  );

  await t.step("sampleRate 0.5: one session decides the same way on five page loads", async () => {
    await settings(h, project.id, { sampleRate: 0.5 });
    const ids = { kept: "", left: "" };
    // At rate 0.5, 200 tries miss one side with odds 2^-199; a broken hash fails here.
    for (let i = 0; i < 200 && (!ids.kept || !ids.left); i++) {
      const id = crypto.randomUUID();
      ids[isSampled(id, 0.5) ? "kept" : "left"] ||= id;
    }
    assert.ok(ids.kept && ids.left, `no id on one side of sampling: ${JSON.stringify(ids)}`);
    for (const [which, id] of Object.entries(ids)) {
      const v = await open(h, { id, key: project.key });
      const outcomes: boolean[] = [];
      for (let i = 0; i < 5; i++) {
        const before = v.ingests();
        await load(v, i % 2 ? `${h.pagesUrl}/other` : shop);
        assert.equal(await withPh(v.page, (ph) => ph.sessionId), id);
        await withPh(v.page, (ph) => ph.flush());
        outcomes.push(v.ingests() > before);
      }
      assert.deepEqual(outcomes, Array(5).fill(which === "kept"), which);
      await v.context.close();
    }
  });

  await t.step("sampleRate 0 and no trigger: a visit makes zero ingest requests", async () => {
    await settings(h, project.id, { sampleRate: 0 });
    const v = await open(h);
    await load(v, shop);
    await v.page.click("#rage");
    await v.page.click("#thrower").catch(() => {});
    await withPh(v.page, (ph) => ph.flush());
    await v.page.goto(`${h.pagesUrl}/other`); // the unload path sends nothing either
    await withPh(v.page, (ph) => ph.flush());
    await v.context.close();
    assert.equal(v.configs(), 2);
    assert.equal(v.ingests(), 0);
  });

  await t.step(
    "minDurationMs 5000: a 2 s visit sends nothing, a 7 s one is stored from its start",
    async () => {
      await settings(h, project.id, { minDurationMs: 5_000 });
      const short = await open(h, undefined, T0);
      await load(short, shop);
      await short.page.clock.runFor(2_000);
      await short.page.goto("about:blank");
      await short.context.close();
      assert.equal(short.ingests(), 0);

      const long = await open(h, undefined, T0);
      await load(long, shop);
      await long.page.clock.runFor(4_900);
      assert.equal(long.ingests(), 0, "nothing before 5 s");
      await long.page.clock.runFor(2_100);
      await waitFor(() => long.ingests() > 0, 10_000, "the first batch at 5 s");
      await withPh(long.page, (ph) => ph.flush());
      const id = await withPh(long.page, (ph) => ph.sessionId!);
      const events = await storedEvents(db, project.id, id);
      // from the visit's start: its first events, the page's Meta and full snapshot among them
      assert.equal(events[0].timestamp, T0);
      assert.ok(events.some((e) => e.type === 4 && e.timestamp === T0));
      assert.ok(events.some((e) => e.type === 2 && e.timestamp === T0));
      await long.context.close();
    },
  );

  await t.step(
    "a blocked path records none of its text and leaves recording_paused markers",
    async () => {
      await settings(h, project.id, { urlBlock: ["/admin/**"] });
      const v = await open(h);
      await load(v, shop);
      await load(v, `${h.pagesUrl}/admin/secret`);
      await load(v, shop);
      // a single-page navigation into the blocked part and back
      await v.page.evaluate(() => {
        history.pushState({}, "", "/admin/spa");
        document.getElementById("tick")!.textContent = "SpaSecretText";
      });
      await v.page.evaluate(() => {
        history.pushState({}, "", "/shop");
        document.getElementById("tick")!.textContent = "BackHome";
      });
      // recording resumes a moment after the address leaves the blocked part
      await waitFor(
        async () => {
          await withPh(v.page, (ph) => ph.flush());
          return h.seen.some((r) => r.path === "/api/ingest" && r.text.includes("BackHome"));
        },
        10_000,
        "the page after the blocked one",
      );
      const id = await withPh(v.page, (ph) => ph.sessionId!);
      await v.context.close();
      const json = (await storedBatches(db, project.id, id)).map((b) => b.json).join("\n");
      const sent = h.seen.filter((r) => r.path === "/api/ingest").map((r) => r.text).join("\n");
      for (const secret of ["TopSecretText", "SpaSecretText"]) {
        assert.ok(!json.includes(secret) && !sent.includes(secret), secret);
      }
      assert.ok(json.includes("ShopText") && json.includes("BackHome"));
      const paused = (await sessionMarkers(db, project.id, id))
        .filter((m) => m.kind === "recording_paused").map((m) => m.data);
      assert.deepEqual(paused, [{ pathname: "/admin/secret" }, { pathname: "/admin/spa" }]);
      const row = await sessionRow(db, project.id, id);
      assert.equal(row?.url, shop);
    },
  );

  const viewer = await (async () => {
    const { organization_id } = await db.selectFrom("projects").select("organization_id")
      .where("id", "=", project.id).executeTakeFirstOrThrow();
    const user = await insertUser(db);
    await insertMembership(db, organization_id, user.id, "VIEWER");
    await db.updateTable("users").set({ active_organization_id: organization_id })
      .where("id", "=", user.id).execute();
    return (await startSession(h.server.deps, user.id)).split(";")[0];
  })();
  const listed = async (query: string) => {
    const res = await fetch(`${h.server.url}/api/sessions?${query}`, {
      headers: { cookie: viewer, origin: h.server.url },
    });
    assert.equal(res.status, 200);
    return ((await res.json()).data as { externalId: string }[]).map((s) => s.externalId);
  };

  /** A visit of `end` s with sampling off; `act` fires the trigger at `at` s. */
  async function triggered(
    trigger: RecordingTrigger | "manual",
    bufferMs: number,
    at: number,
    end: number,
  ) {
    // Playhead.trigger() needs no trigger in the settings; a dead click stands in as the buffer's
    const triggers: RecordingTrigger[] = [trigger === "manual" ? "dead_click" : trigger];
    await settings(h, project.id, { sampleRate: 0, triggers, bufferMs });
    const v = await open(h, undefined, T0);
    await load(v, shop);
    await v.page.clock.runFor(at * 1_000);
    assert.equal(v.ingests(), 0, "nothing before the trigger");
    if (trigger === "error") await v.page.click("#thrower");
    else if (trigger === "rage_click") { for (let i = 0; i < 3; i++) await v.page.click("#rage"); }
    else await withPh(v.page, (ph) => ph.trigger());
    await v.page.clock.runFor((end - at) * 1_000); // the rage burst ends after 1 s
    await waitFor(() => v.ingests() > 0, 10_000, "the triggered upload");
    await withPh(v.page, (ph) => ph.flush());
    const id = await withPh(v.page, (ph) => ph.sessionId!);
    await v.context.close();
    const row = await sessionRow(db, project.id, id);
    assert.equal(row?.recording_reason, trigger);
    const triggeredAt = row!.triggered_at!;
    const when = triggeredAt - T0;
    // A rage click is known when its burst ends, 1 s and 1 ms after its last click (sdk/signals/signals.ts).
    assert.ok(when >= at * 1_000 && when <= (at + 1) * 1_000 + 1, `triggered at ${when} ms`);
    const events = await storedEvents(db, project.id, id);
    assert.equal(events[0].type, 4, "opens with a Meta");
    assert.equal(events.find((e) => e.type !== 4)?.type, 2, "and its full snapshot");
    const lead = triggeredAt - events[0].timestamp;
    assert.ok(lead >= 30_000, `starts ${lead} ms before the trigger`);
    assert.ok(lead <= bufferMs + 30_000, `starts ${lead} ms before the trigger`);
    assert.ok(events.some((e) => e.timestamp > triggeredAt + 2_000), "goes on after it");
    const markers = await sessionMarkers(db, project.id, id);
    if (trigger !== "manual") {
      // An error's marker is at its trigger; a rage click's at its burst's first click, before the
      // burst ends and triggers (sdk/signals/signals.ts dates signals at the click).
      assert.ok(
        markers.some((m) =>
          m.kind === trigger && m.ts <= triggeredAt && triggeredAt - m.ts <= 5_000
        ),
        "its marker",
      );
    }
    return { id, lead };
  }

  await t.step(
    "sampleRate 0 + error trigger: a 45 s visit throwing at 40 s is stored from 30+ s before",
    async () => {
      const { id, lead } = await triggered("error", 60_000, 40, 45);
      assert.ok(lead >= 39_000, `${lead}: from the page's start`);
      assert.deepEqual(await listed("reason=error"), [id]);
    },
  );

  await t.step(
    "sampleRate 0 + rage_click trigger at 100 s, buffer 30 s: starts 30-60 s before",
    async () => {
      const { id } = await triggered("rage_click", 30_000, 100, 105);
      assert.deepEqual(await listed("reason=rage_click"), [id]);
      assert.ok(!(await listed("reason=error")).includes(id));
    },
  );

  await t.step(
    "sampleRate 0: Playhead.trigger() at 35 s records from the buffer as manual",
    async () => {
      const { id } = await triggered("manual", 60_000, 35, 38);
      assert.deepEqual(await listed("reason=manual"), [id]);
    },
  );

  // Three pages of a visit, 20 s each (at T0, +20 s, +40 s), Playhead.trigger() on the third: the
  // recording opens with the latest page whose snapshot is 30 s or more before the trigger.
  for (const [into3, from] of [[9_999, 1], [10_000, 2]]) {
    await t.step(
      `sampleRate 0: a trigger ${into3} ms into a visit's third page is stored from page ${from}`,
      async () => {
        await settings(h, project.id, {
          sampleRate: 0,
          triggers: ["dead_click"],
          bufferMs: 60_000,
        });
        const v = await open(h, undefined, T0);
        for (const n of [1, 2, 3]) {
          h.page(
            `/visit/${n}`,
            sdkPage(h, project.key, {}, `<p id="tick">Visit${n}Text</p>`, TICKER),
          );
          if (n > 1) await v.page.clock.runFor(20_000);
          await load(v, `${h.pagesUrl}/visit/${n}`);
          await withPh(v.page, (ph) => ph.flush()); // decided, with the earlier pages' buffer
        }
        await v.page.clock.runFor(into3);
        assert.equal(v.ingests(), 0, "nothing before the trigger");
        await withPh(v.page, (ph) => ph.trigger());
        await v.page.clock.runFor(3_000);
        await waitFor(() => v.ingests() > 0, 10_000, "the triggered upload");
        await withPh(v.page, (ph) => ph.flush());
        const id = await withPh(v.page, (ph) => ph.sessionId!);
        // Open until the reads are done: its pagehide would send its end marker between them.

        const at = T0 + 40_000 + into3;
        const row = await sessionRow(db, project.id, id);
        assert.equal(row?.recording_reason, "manual");
        assert.equal(row?.triggered_at, at);
        const events = await storedEvents(db, project.id, id);
        assert.ok(at - events[0].timestamp >= 30_000, `${at - events[0].timestamp} ms before`);
        assert.equal(events[0].type, 4, "opens with a Meta");
        assert.equal(events[0].timestamp, T0 + (from - 1) * 20_000);
        assert.equal(row?.url, `${h.pagesUrl}/visit/${from}`, "the session starts on its page");
        // Each page's events go with its own page id and numbers, and are stored once.
        const bodies = h.seen.filter((r) => r.path === "/api/ingest")
          .map((r) => JSON.parse(r.text) as { sessionId: string; pageId?: string })
          .filter((b) => b.sessionId === id);
        const pageOf = (n: number) =>
          bodies.find((b) => JSON.stringify(b).includes(`Visit${n}Text`))?.pageId;
        const pages = [1, 2, 3].filter((n) => n >= from).map(pageOf);
        assert.equal(new Set(pages).size, 4 - from, `one page id each: ${pages}`);
        assert.ok(pages.every((p) => p !== undefined));
        assert.equal(pageOf(1), from === 1 ? pages[0] : undefined);
        const sequences = await db.selectFrom("page_sequences").select(["page_id", "seqs"])
          .where("project_id", "=", project.id).where("session_external_id", "=", id).execute();
        assert.deepEqual(sequences.map((r) => r.page_id).sort(), [...pages].sort());
        const numbered = sequences.flatMap((r) => [...r.seqs.matchAll(/\[(\d+),(\d+)\)/g)])
          .reduce((n, [, lo, hi]) => n + Number(hi) - Number(lo), 0);
        assert.equal(events.length, numbered, "every event numbered and stored once");
        await v.context.close();
      },
    );
  }
});
