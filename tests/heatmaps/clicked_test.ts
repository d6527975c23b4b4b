// The sessions that clicked, each opening its replay at that click: `clicked=` (an element) and
// `clickedCell=` (a grid cell of a page) on /api/sessions and /sessions list exactly the sessions
// with such a click, each item's `openAtMs` its first one (ms from the session's start, the replay's
// `?t=`) and each row's links at that moment; a share derived before migration 0041 has no time
// (the replay opens at the start) and 0041 queues its session, whose next derivation fills it in.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createPagesApp, page as pageOf } from "@/tests/helpers/pages.ts";
import { METADATA, postIngest } from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { deriveHeatmaps } from "@/core/heatmaps/derive.ts";
import { up as clickTimes } from "@/db/migrations/0041_heatmap_click_times.ts";
import { click, meta, NODE, snapshot } from "@/tests/helpers/heatmap_recording.ts";

const T = Date.now() - 10 * 60_000;
const LATER = () => new Date(Date.now() + 3_600_000); // every queued session is due
const BUY = "button#buy";
const HOME = "https://shop.test/orders/77";
const WIDE = { href: HOME, width: 1280, height: 800, start: T };

async function world() {
  const t = await createPagesApp();
  const w = await sessionsWorld(t, "OWNER");
  const send = async (sessionId: string, events: unknown[]) => {
    const res = await postIngest(t.app, { sessionId, events, metadata: METADATA }, {
      key: w.alpha.key,
    });
    assert.equal(res.status, 204);
  };
  /** The listed sessions' external ids and where each opens. */
  const listed = async (query: string) => {
    const { res, body } = await w.get(`/api/sessions?${query}`);
    assert.equal(res.status, 200, JSON.stringify(body));
    return Object.fromEntries(
      body.data.map((s: { externalId: string; openAtMs?: number | null }) => [
        s.externalId,
        s.openAtMs,
      ]),
    );
  };
  const page = (path: string) => pageOf(t, path, { cookie: w.me.cookie });
  return { t, w, send, listed, page, [Symbol.asyncDispose]: () => t[Symbol.asyncDispose]() };
}

/** a: Buy at 100 and 2,000 ms (cell 10:2), then the third button at 5,000 (cell 39:2); b: Buy at
 * 3,000 ms only, lower on the page (cell 10:20); c: the third button only. */
async function visits(x: Awaited<ReturnType<typeof world>>) {
  const [a, b, c] = [1, 2, 3].map(() => crypto.randomUUID());
  await x.send(a, [
    meta(WIDE),
    snapshot(T + 1),
    click(NODE.buy, 128, 40, T + 100),
    click(NODE.buyText, 130, 44, T + 2_000),
    click(NODE.third, 500, 40, T + 5_000),
  ]);
  await x.send(b, [meta(WIDE), snapshot(T + 1), click(NODE.buy, 128, 330, T + 3_000)]);
  await x.send(c, [meta(WIDE), snapshot(T + 1), click(NODE.third, 500, 40, T + 700)]);
  await deriveHeatmaps(x.t.deps, LATER());
  return { a, b, c };
}

const cell = (x: number, y: number, path = "/orders/:id") =>
  encodeURIComponent(`wide:${x}:${y}:${path}`);

Deno.test("clicked: each session listed by an element or a cell opens at its first such click", async () => {
  await using x = await world();
  const { a, b, c } = await visits(x);
  assert.deepEqual(await x.listed(`clicked=${encodeURIComponent(BUY)}`), { [a]: 100, [b]: 3_000 });
  assert.deepEqual(await x.listed(`clickedCell=${cell(10, 2)}`), { [a]: 100 });
  assert.deepEqual(await x.listed(`clickedCell=${cell(10, 20)}`), { [b]: 3_000 });
  assert.deepEqual(await x.listed(`clickedCell=${cell(39, 2)}`), { [a]: 5_000, [c]: 700 });
  // Both: sessions with each; the moment of the first click that is both.
  assert.deepEqual(
    await x.listed(`clicked=${encodeURIComponent(BUY)}&clickedCell=${cell(10, 2)}`),
    {
      [a]: 100,
    },
  );
  // Another page's cell, or an empty one, lists none; without either filter no item has a moment.
  assert.deepEqual(await x.listed(`clickedCell=${cell(10, 2, "/cart")}`), {});
  assert.deepEqual(await x.listed(`clickedCell=${cell(50, 2)}`), {});
  assert.deepEqual(await x.listed(""), { [a]: undefined, [b]: undefined, [c]: undefined });

  // The page's rows link to the replay at that moment.
  const page = await x.page(`/sessions?clicked=${encodeURIComponent(BUY)}`);
  assert.equal(page.status, 200);
  const html = await page.text();
  const id = async (external: string) =>
    (await x.w.db.selectFrom("sessions").select("id").where("external_id", "=", external)
      .executeTakeFirstOrThrow()).id;
  assert.match(html, new RegExp(`href="/replays/${await id(a)}\\?t=100"`));
  assert.match(html, new RegExp(`href="/replays/${await id(b)}\\?t=3000"`));
});

Deno.test("clicked: a bad cell is 400 naming clickedCell on the API, 400 on the page", async () => {
  await using x = await world();
  for (const bad of ["huge:1:2:/x", "wide:100:2:/x", "wide:1:-2:/x", "wide:1:2:x", "wide:1:2"]) {
    const { res, body } = await x.w.get(`/api/sessions?clickedCell=${encodeURIComponent(bad)}`);
    assert.equal(res.status, 400, bad);
    assert.deepEqual(body.issues.map((i: { path: string }) => i.path), ["clickedCell"], bad);
  }
  const page = await x.page(`/sessions?clickedCell=wide:1:2`);
  assert.equal(page.status, 400);
  await page.body?.cancel();
});

Deno.test("clicked: a share derived before 0041 opens at the start; 0041 queues its session and the next run times it", async () => {
  await using x = await world();
  const { a, b } = await visits(x);
  const db = x.t.db.kysely;
  // As before 0041: no column, nothing queued; then the migration.
  await sql`ALTER TABLE heatmap_clicks DROP COLUMN first_ms`.execute(db);
  await db.deleteFrom("heatmap_queue").execute();
  await clickTimes(db);
  assert.deepEqual(await x.listed(`clicked=${encodeURIComponent(BUY)}`), { [a]: null, [b]: null });
  const page = await x.page(`/sessions?clicked=${encodeURIComponent(BUY)}`);
  assert.doesNotMatch(await page.text(), /\/replays\/[^"]+\?t=/);
  assert.deepEqual(await deriveHeatmaps(x.t.deps, LATER()), {
    sessions: 3,
    clicks: 5,
    failed: 0,
    truncated: 0,
  });
  assert.deepEqual(await x.listed(`clicked=${encodeURIComponent(BUY)}`), { [a]: 100, [b]: 3_000 });
});
