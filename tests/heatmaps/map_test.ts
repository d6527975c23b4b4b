// /api/heatmaps from ingested recordings (no browser; the e2e test records real
// pages): a session's batches queue it, the background step derives its share of the maps, and the
// maps sum the shares: per element and band, per grid cell, rage and dead layers, scroll depth; a
// later batch re-derives without counting twice; `clicked=` lists exactly the sessions that
// clicked; deleting a session or erasing its user lowers the counts.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { METADATA, postIngest } from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { deriveHeatmaps } from "@/core/heatmaps/derive.ts";
import { claimDue, finishQueued } from "@/db/queries/heatmaps/queue.ts";
import { click, meta, NODE, scroll, signal, snapshot } from "@/tests/helpers/heatmap_recording.ts";

const T = Date.now() - 10 * 60_000;
const LATER = () => new Date(Date.now() + 3_600_000); // every queued session is due
const BUY = "button#buy";
const SECOND = "body > div.toolbar.main > button.ghost:nth-of-type(2)";
const HOME = "https://shop.test/orders/77";

async function world() {
  const t = await createTestApp();
  const w = await sessionsWorld(t, "OWNER");
  const send = async (sessionId: string, events: unknown[], userId?: string) => {
    const metadata = userId ? { ...METADATA, userIdentity: { userId, traits: {} } } : METADATA;
    const res = await postIngest(t.app, { sessionId, events, metadata }, { key: w.alpha.key });
    assert.equal(res.status, 204);
  };
  const map = async (query: string) => {
    const { res, body } = await w.get(
      `/api/heatmaps?projectId=${w.alpha.id}&path=/orders/:id&${query}`,
    );
    assert.equal(res.status, 200, JSON.stringify(body));
    return body;
  };
  const elements = async (query: string) =>
    Object.fromEntries(
      (await map(`mode=element&${query}`)).elements.map((
        e: {
          selector: string;
          count: number;
          sessions: number;
          rageCount: number;
          deadCount: number;
        },
      ) => [e.selector, [e.count, e.sessions, e.rageCount, e.deadCount]]),
    );
  return { t, w, send, map, elements, [Symbol.asyncDispose]: () => t[Symbol.asyncDispose]() };
}

/** A wide visit: Buy twice, a rage burst of 3 on the second button, scrolled to 400. */
async function wideVisit(
  send: (id: string, e: unknown[], u?: string) => Promise<void>,
  id: string,
  user?: string,
) {
  const v = { href: HOME, width: 1280, height: 800, start: T };
  await send(id, [meta(v), snapshot(T + 1)], user);
  await send(id, [
    click(NODE.buy, 128, 40, T + 100),
    click(NODE.buyText, 130, 44, T + 2_000),
    click(NODE.second, 300, 40, T + 4_000),
    click(NODE.second, 301, 41, T + 4_200),
    click(NODE.second, 300, 40, T + 4_400),
    signal("rage_click", { selector: SECOND, x: 300, y: 40, at: T + 4_000, clicks: 3 }, T + 5_500),
    scroll(400, T + 6_000),
  ], user);
}

Deno.test("heatmaps: counts per element and band, grid cells, rage, scroll depth and pages", async () => {
  await using x = await world();
  const a = crypto.randomUUID(), b = crypto.randomUUID();
  await wideVisit(x.send, a);
  await x.send(b, [
    meta({ href: `${HOME}?ref=1`, width: 390, height: 700, start: T }),
    snapshot(T + 1),
    click(NODE.buy, 20, 40, T + 50),
  ]);
  assert.deepEqual(await deriveHeatmaps(x.t.deps, LATER()), {
    sessions: 2,
    clicks: 6,
    failed: 0,
    truncated: 0,
  });

  assert.deepEqual(await x.elements("viewport=wide"), {
    [BUY]: [2, 1, 0, 0],
    [SECOND]: [3, 1, 1, 0],
  });
  assert.deepEqual(await x.elements("viewport=narrow"), { [BUY]: [1, 1, 0, 0] });
  assert.deepEqual(await x.elements("viewport=medium"), {});
  assert.deepEqual(await x.elements("viewport=wide&kind=rage"), { [SECOND]: [1, 1, 1, 0] });

  const grid = await x.map("viewport=wide");
  assert.equal(grid.totalSessions, 1);
  // Buy at x 128 and 130 of 1280 (10 %), y 40 and 44 (cell 2); the burst at 300/1280 (23 %).
  assert.deepEqual(grid.cells, [{ x: 10, y: 2, count: 2 }, { x: 23, y: 2, count: 3 }]);
  const scrolled = await x.map("viewport=wide&kind=scroll");
  assert.equal(scrolled.averageFoldPx, 800);
  assert.equal(scrolled.depths.length, 13); // 0 … 1200 px: scrolled 400 + an 800 px viewport
  assert.deepEqual(scrolled.depths.at(-1), { depthPx: 1200, reachedFraction: 1 });

  const { body: pages } = await x.w.get(`/api/heatmaps/pages?projectId=${x.w.alpha.id}`);
  assert.deepEqual(pages, { pages: [{ path: "/orders/:id", views: 2, sessions: 2 }] });

  // A later batch derives the session again, whole: nothing is counted twice.
  await x.send(a, [click(NODE.buy, 128, 40, T + 60_000)]);
  assert.deepEqual(await deriveHeatmaps(x.t.deps, LATER()), {
    sessions: 1,
    clicks: 6,
    failed: 0,
    truncated: 0,
  });
  assert.deepEqual((await x.elements("viewport=wide"))[BUY], [3, 1, 0, 0]);
});

Deno.test("heatmaps: clicked= lists exactly the sessions that clicked; deletion and erasure lower the counts", async () => {
  await using x = await world();
  const [a, b, c, d] = [1, 2, 3, 4].map(() => crypto.randomUUID());
  await wideVisit(x.send, a, "ada");
  await wideVisit(x.send, b, "bob");
  await x.send(c, [meta({ href: HOME, width: 1280, height: 800, start: T }), snapshot(T + 1)]);
  // d clicked another element only
  await x.send(d, [
    meta({ href: HOME, width: 1280, height: 800, start: T }),
    snapshot(T + 1),
    click(NODE.third, 500, 40, T + 100),
  ]);
  await deriveHeatmaps(x.t.deps, LATER());
  assert.deepEqual((await x.elements("viewport=wide"))[BUY], [4, 2, 0, 0]);

  const listed = async () => {
    const { res, body } = await x.w.get(`/api/sessions?clicked=${encodeURIComponent(BUY)}`);
    assert.equal(res.status, 200);
    return body.data.map((s: { externalId: string }) => s.externalId).sort();
  };
  assert.deepEqual(await listed(), [a, b].sort());

  const idOf = async (external: string) =>
    (await x.w.db.selectFrom("sessions").select("id").where("external_id", "=", external)
      .executeTakeFirstOrThrow()).id;
  const del = await call(x.t.app, "DELETE", `/api/sessions/${await idOf(a)}`, {
    cookie: x.w.me.cookie,
  });
  assert.equal(del.status, 204);
  assert.deepEqual((await x.elements("viewport=wide"))[BUY], [2, 1, 0, 0]);
  assert.deepEqual(await listed(), [b]);

  const bob = await x.w.db.selectFrom("tracked_users").select("id").where("external_id", "=", "bob")
    .executeTakeFirstOrThrow();
  const erased = await call(x.t.app, "POST", `/api/tracked-users/${bob.id}/erase`, {
    cookie: x.w.me.cookie,
  });
  assert.equal(erased.status, 200);
  assert.deepEqual(await x.elements("viewport=wide"), {
    "body > div.toolbar.main > button:nth-of-type(3)": [1, 1, 0, 0], // d's
  });
  assert.deepEqual(await listed(), []);
  assert.equal((await x.map("viewport=wide")).totalSessions, 2); // c and d are left
});

Deno.test("heatmaps: bad input is 400 naming the field; another organization's project is 404 naming it", async () => {
  await using x = await world();
  const a = crypto.randomUUID();
  await wideVisit(x.send, a);
  await deriveHeatmaps(x.t.deps, LATER());
  const field = async (query: string) => {
    const { res, body } = await x.w.get(`/api/heatmaps?${query}`);
    assert.equal(res.status, 400, query);
    return body.issues.map((i: { path: string }) => i.path);
  };
  const ok = `projectId=${x.w.alpha.id}&path=/orders/:id`;
  // Another organization's project is not found, as all its ids are; the answer names the field.
  const foreign = await x.w.get(`/api/heatmaps?projectId=${x.w.foreign.id}&path=/orders/:id`);
  assert.equal(foreign.res.status, 404);
  assert.deepEqual(foreign.body.issues.map((i: { path: string }) => i.path), ["projectId"]);
  assert.deepEqual(await field(`projectId=&path=/orders/:id`), ["projectId"]);
  assert.deepEqual(await field(`projectId=${x.w.alpha.id}&path=/nowhere`), ["path"]);
  assert.deepEqual(await field(`${ok}&kind=scroll&mode=element`), ["mode"]);
  assert.deepEqual(await field(`${ok}&viewport=huge`), ["viewport"]);
  assert.deepEqual(await field(`${ok}&kind=hover`), ["kind"]);
  const day = (offset: number) =>
    new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  // Retention 7 days: 7 days ago is the oldest day kept, 8 days ago is past it.
  assert.equal((await x.w.get(`/api/heatmaps?${ok}&from=${day(-7)}`)).res.status, 200);
  assert.deepEqual(await field(`${ok}&from=${day(-8)}`), ["from"]);
  assert.deepEqual(await field(`${ok}&from=${day(1)}&to=${day(0)}`), ["from"]);
  const { res } = await x.w.get(`/api/heatmaps/pages?projectId=${x.w.foreign.id}`);
  assert.equal(res.status, 404);
});

Deno.test("heatmaps: a batch stored while its session is derived leaves it queued for the next run", async () => {
  await using x = await world();
  const a = crypto.randomUUID();
  await x.send(a, [meta({ href: HOME, width: 1280, height: 800, start: T }), snapshot(T + 1)]);
  const [claimed] = await claimDue(x.t.db.kysely, LATER(), new Date(Date.now() + 7_200_000), 10);
  await x.send(a, [click(NODE.buy, 128, 40, T + 100)]); // arrives during the derivation
  await finishQueued(x.t.db.kysely, claimed);
  assert.deepEqual(await deriveHeatmaps(x.t.deps, LATER()), {
    sessions: 1,
    clicks: 1,
    failed: 0,
    truncated: 0,
  });
  assert.deepEqual(await deriveHeatmaps(x.t.deps, LATER()), {
    sessions: 0,
    clicks: 0,
    failed: 0,
    truncated: 0,
  });
});

Deno.test("heatmaps: the sessions search's filters narrow a map (device, browser, user, signals)", async () => {
  await using x = await world();
  const [desk, phone] = [crypto.randomUUID(), crypto.randomUUID()];
  await wideVisit(x.send, desk, "ada"); // Chrome on Linux, desktop; a rage click
  const mobile = {
    ...METADATA,
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 " +
      "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1",
  };
  const events = [
    meta({ href: HOME, width: 1280, height: 800, start: T }),
    snapshot(T + 1),
    click(NODE.buy, 128, 40, T + 100),
  ];
  const res = await postIngest(x.t.app, { sessionId: phone, events, metadata: mobile }, {
    key: x.w.alpha.key,
  });
  assert.equal(res.status, 204);
  await deriveHeatmaps(x.t.deps, LATER());
  assert.deepEqual((await x.elements("viewport=wide"))[BUY], [3, 2, 0, 0]);
  assert.deepEqual((await x.elements("viewport=wide&device=mobile"))[BUY], [1, 1, 0, 0]);
  assert.deepEqual((await x.elements("viewport=wide&device=desktop"))[BUY], [2, 1, 0, 0]);
  assert.deepEqual((await x.elements("viewport=wide&browser=Safari"))[BUY], [1, 1, 0, 0]);
  assert.deepEqual((await x.elements("viewport=wide&user=ada"))[BUY], [2, 1, 0, 0]);
  assert.deepEqual((await x.elements("viewport=wide&signals=rage_click"))[BUY], [2, 1, 0, 0]);
  assert.equal((await x.map("viewport=wide&device=mobile")).totalSessions, 1);
});

Deno.test("heatmaps: a run derives at most its limit of sessions; the rest wait in the queue for the next", async () => {
  await using x = await world();
  for (let i = 0; i < 3; i++) await wideVisit(x.send, crypto.randomUUID());
  const run = () => deriveHeatmaps(x.t.deps, LATER(), 2);
  assert.deepEqual(await run(), { sessions: 2, clicks: 10, failed: 0, truncated: 0 });
  assert.deepEqual(await run(), { sessions: 1, clicks: 5, failed: 0, truncated: 0 });
  assert.deepEqual(await run(), { sessions: 0, clicks: 0, failed: 0, truncated: 0 });
  assert.deepEqual((await x.elements("viewport=wide"))[BUY], [6, 3, 0, 0]);
});
