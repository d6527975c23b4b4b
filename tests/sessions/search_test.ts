// GET /api/sessions, the search beyond the external id: user, visited, duration, signals,
// browser/os/device, the signals sort, searchUsers; each alone and combined, 400 for bad values,
// organization-scoped.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp } from "@/tests/helpers/app.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import {
  insertMarker,
  insertSession,
  insertTrackedUser,
} from "@/tests/helpers/sessions_factories.ts";

const ids = (body: { data: { id: string }[] }) => body.data.map((s) => s.id).sort();

async function world() {
  const t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const ada = await insertTrackedUser(w.db, w.alpha, {
    externalId: "user-42",
    traits: { email: "ada@example.test", plan: "Enterprise", team: { label: "Acme", seats: 12 } },
  });
  const bob = await insertTrackedUser(w.db, w.beta, { externalId: "b-7", customName: "Bobby" });
  const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000);
  const a = await insertSession(w.db, w.alpha, {
    createdAt: at(5),
    durationMs: 120_000,
    trackedUserId: ada.id,
  });
  const b = await insertSession(w.db, w.beta, {
    createdAt: at(4),
    durationMs: 5_000,
    trackedUserId: bob.id,
  });
  const c = await insertSession(w.db, w.alpha, { createdAt: at(3), durationMs: 30_000 });
  // Another organization's session has everything: it never shows.
  const foreignUser = await insertTrackedUser(w.db, w.foreign, { externalId: "user-42" });
  const foreign = await insertSession(w.db, w.foreign, { trackedUserId: foreignUser.id });
  // Markers first: inserting one rebuilds the session's url summary from its url markers.
  await insertMarker(w.db, a.id, {
    ts: a.started_at.getTime() + 1000,
    kind: "rage_click",
    data: { selector: "button#pay", text: "Pay", x: 1, y: 1, clicks: 3 },
  });
  await insertMarker(w.db, a.id, {
    ts: a.started_at.getTime() + 2000,
    kind: "error",
    data: { message: "TypeError: boom" },
  });
  await insertMarker(w.db, b.id, {
    ts: b.started_at.getTime() + 1000,
    kind: "dead_click",
    data: { selector: "button#pay", text: "Pay", x: 1, y: 1 },
  });
  const set = (id: string, values: Record<string, unknown>) =>
    w.db.updateTable("sessions").set(values).where("id", "=", id).execute();
  await set(a.id, {
    error_count: 2,
    rage_click_count: 1,
    browser: "Chrome",
    os: "macOS",
    device: "desktop",
    url_pathnames: sql`ARRAY['/', '/checkout/pay', '/done']`,
  });
  await set(b.id, {
    dead_click_count: 3,
    browser: "Safari",
    os: "iOS",
    device: "mobile",
    url_pathnames: sql`ARRAY['/blog/checkout']`,
  });
  await set(c.id, { browser: "Chrome", os: "Windows", device: "desktop" });
  await set(foreign.id, {
    error_count: 9,
    rage_click_count: 9,
    dead_click_count: 9,
    browser: "Chrome",
    os: "macOS",
    device: "desktop",
    url_pathnames: sql`ARRAY['/checkout/pay']`,
  });
  return Object.assign(t, { w, a, b, c });
}

Deno.test("sessions search: each filter alone", async () => {
  await using t = await world();
  const { w, a, b, c } = t;
  const cases: [string, string[]][] = [
    ["user=USER-4", [a.id]],
    ["user=ada@example", [a.id]], // a trait value
    ["user=enterprise", [a.id]],
    ["user=acme", [a.id]], // a nested trait value
    ["user=plan", []], // a trait key
    ["user=label", []], // a nested object's key
    ["user=%22enterprise", []], // JSON punctuation around a value
    ["user=test%20Enterprise", []], // across two values
    ["user=bobby", [b.id]], // the custom name
    ["user=nobody", []],
    ["visited=/checkout*", [a.id]],
    ["visited=*checkout*", [a.id, b.id]],
    ["visited=/checkout", []], // a whole pathname, not a prefix
    ["visited=/done", [a.id]],
    ["minDuration=30000", [a.id, c.id]],
    ["maxDuration=30000", [b.id, c.id]],
    ["minDuration=10000&maxDuration=60000", [c.id]],
    ["signals=error", [a.id]],
    ["signals=dead_click", [b.id]],
    ["signals=error,rage_click", [a.id]],
    ["signals=error,dead_click", []],
    ["browser=Chrome", [a.id, c.id]],
    ["os=iOS", [b.id]],
    ["device=desktop", [a.id, c.id]],
    ["device=tablet", []],
    ["element=button%23pay", [a.id, b.id]],
    ["element=button%23pay&signals=rage_click", [a.id]],
    ["element=button%23pay&signals=dead_click", [b.id]],
    ["element=button%23other", []],
    ["error=TypeError%3A%20boom", [a.id]],
    ["error=TypeError", []],
  ];
  for (const [query, expected] of cases) {
    const { res, body } = await w.get(`/api/sessions?${query}`);
    assert.equal(res.status, 200, query);
    assert.deepEqual(ids(body), [...expected].sort(), query);
  }
});

Deno.test("sessions search: combined with each other and the old filters; items carry the new fields", async () => {
  await using t = await world();
  const { w, a } = t;
  const { body } = await w.get(`/api/sessions?user=user-42&signals=error&browser=Chrome`);
  assert.deepEqual(ids(body), [a.id]);
  const item = body.data[0];
  assert.deepEqual(
    [item.errorCount, item.rageClickCount, item.deadClickCount, item.browser, item.os, item.device],
    [2, 1, 0, "Chrome", "macOS", "desktop"],
  );
  assert.equal(
    (await w.get(`/api/sessions?user=user-42&projectIds=${w.beta.id}`)).body.data.length,
    0,
  );
  const summary = await w.get(`/api/sessions/summary?signals=error`);
  assert.equal(summary.body.totalSessions, 1);
});

Deno.test("sessions search: searchUsers makes search match session ids or users", async () => {
  await using t = await world();
  const { w, a, b } = t;
  assert.deepEqual(ids((await w.get(`/api/sessions?search=user-42`)).body), []);
  assert.deepEqual(ids((await w.get(`/api/sessions?search=user-42&searchUsers=true`)).body), [
    a.id,
  ]);
  const byId = b.external_id.slice(0, 8);
  assert.deepEqual(ids((await w.get(`/api/sessions?search=${byId}&searchUsers=true`)).body), [
    b.id,
  ]);
});

Deno.test("sessions search: sort=signals, most first, paginated by its cursor", async () => {
  await using t = await world();
  const { w, a, b, c } = t;
  const first = await w.get(`/api/sessions?sort=signals&limit=2`);
  // a has 3 signals, b has 3: ties break by id (desc); c has none and comes last.
  const top = first.body.data.map((s: { id: string }) => s.id);
  assert.deepEqual([...top].sort(), [a.id, b.id].sort());
  assert.deepEqual(top, [a.id, b.id].sort().reverse());
  const next = await w.get(`/api/sessions?sort=signals&limit=2&cursor=${first.body.nextCursor}`);
  assert.deepEqual(next.body.data.map((s: { id: string }) => s.id), [c.id]);
  const asc = await w.get(`/api/sessions?sort=signals&sortDir=asc`);
  assert.equal(asc.body.data[0].id, c.id);
});

Deno.test("sessions search: bad values are 400", async () => {
  await using t = await world();
  const { w } = t;
  for (
    const query of [
      "signals=error,oops",
      "device=phone",
      "minDuration=-1",
      "maxDuration=1.5",
      "sort=loud",
      "searchUsers=yes",
    ]
  ) {
    assert.equal((await w.get(`/api/sessions?${query}`)).res.status, 400, query);
  }
});
