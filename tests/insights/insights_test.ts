// GET /api/insights: top elements, errors, pages and the daily trend of the active
// organization's signal markers in the range; projects narrow; other organizations never show.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import {
  insertMarker,
  insertSession,
  insertTrackedUser,
} from "@/tests/helpers/sessions_factories.ts";

const DAY = 86_400_000;

Deno.test("insights: elements, errors, pages and days of the range, scoped and narrowed", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const now = Date.now();
  const ada = await insertTrackedUser(w.db, w.alpha, { externalId: "ada" });
  // A minute ago, but never before today (UTC) began: `range=today` must take it in.
  const todayStart = Date.parse(new Date(now).toISOString().slice(0, 10));
  const a = await insertSession(w.db, w.alpha, {
    createdAt: new Date(Math.max(now - 60_000, todayStart)),
    trackedUserId: ada.id,
  });
  const b = await insertSession(w.db, w.beta, { createdAt: new Date(now - DAY - 60_000) });
  const old = await insertSession(w.db, w.alpha, { createdAt: new Date(now - 10 * DAY) });
  const foreign = await insertSession(w.db, w.foreign, { createdAt: new Date(now - 60_000) });
  const start = (s: { started_at: Date }) => s.started_at.getTime();
  const url = (s: { started_at: Date }, offset: number, pathname: string) => ({
    ts: start(s) + offset,
    kind: "url",
    data: { url: `https://shop.test${pathname}`, pathname },
  });
  const rage = (s: { started_at: Date }, offset: number, selector: string, text: string) => ({
    ts: start(s) + offset,
    kind: "rage_click",
    data: { selector, text, x: 1, y: 1, clicks: 3 },
  });
  for (
    const [session, marker] of [
      [a, url(a, 0, "/")],
      [a, url(a, 1000, "/checkout")],
      [a, rage(a, 2000, "button#pay", "Pay")],
      [a, rage(a, 3000, "button#pay", "Pay now")],
      [a, { ts: start(a) + 4000, kind: "error", data: { message: "boom" } }],
      [a, { ts: start(a) + 500, kind: "dead_click", data: { selector: "a.more", text: "More" } }],
      [b, url(b, 0, "/blog")],
      [b, rage(b, 1000, "button#pay", "Pay")],
      [b, { ts: start(b) + 2000, kind: "error", data: { message: "boom" } }],
      [b, { ts: start(b) + 3000, kind: "error", data: { message: "other" } }],
      [old, rage(old, 1000, "button#old", "Old")],
      [foreign, rage(foreign, 1000, "button#pay", "Pay")],
    ] as const
  ) {
    await insertMarker(w.db, session.id, marker);
  }

  const { res, body } = await w.get("/api/insights?range=7d");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(
    body.rageClicks,
    [{
      selector: "button#pay",
      text: "Pay", // b's, the latest (a day later than a's... no: a is newer)
      sessions: 2,
      users: 1,
      lastSeenAt: new Date(start(a) + 3000).toISOString(),
    }].map((r) => ({ ...r, text: "Pay now" })),
  );
  assert.deepEqual(body.deadClicks.map((d: { selector: string }) => d.selector), ["a.more"]);
  assert.deepEqual(
    body.errors.map((e: { message: string; sessions: number }) => [e.message, e.sessions]),
    [["boom", 2], ["other", 1]],
  );
  const pages = Object.fromEntries(
    body.pages.map((p: { pathname: string }) => [p.pathname, p]),
  );
  assert.deepEqual(pages["/checkout"], {
    pathname: "/checkout",
    sessions: 1,
    errors: 1,
    rageClicks: 2,
    deadClicks: 0,
  });
  assert.equal(pages["/"].deadClicks, 1);
  assert.equal(pages["/blog"].errors, 2);
  const total = body.daily.reduce(
    (sum: number, d: { errors: number; rageClicks: number; deadClicks: number }) =>
      sum + d.errors + d.rageClicks + d.deadClicks,
    0,
  );
  assert.equal(total, 7);

  // projectIds narrows; today leaves out yesterday's session; 30d takes the old one in.
  const beta = await w.get(`/api/insights?projectIds=${w.beta.id}`);
  assert.deepEqual(beta.body.errors.map((e: { message: string }) => e.message).sort(), [
    "boom",
    "other",
  ]);
  assert.equal(beta.body.deadClicks.length, 0);
  const month = await w.get("/api/insights?range=30d");
  assert.ok(month.body.rageClicks.some((r: { selector: string }) => r.selector === "button#old"));
  const today = await w.get("/api/insights?range=today");
  assert.equal(today.res.status, 200);
  assert.deepEqual(
    today.body.errors.map((e: { message: string; sessions: number }) => [e.message, e.sessions]),
    [["boom", 1]],
  );
  assert.deepEqual(
    today.body.rageClicks.map((r: { selector: string; sessions: number }) => [
      r.selector,
      r.sessions,
    ]),
    [["button#pay", 1]],
  );
  for (const bad of ["range=year", "range=90d"]) {
    assert.equal((await w.get(`/api/insights?${bad}`)).res.status, 400, bad);
  }
  assert.equal((await call(t.app, "GET", "/api/insights")).status, 401);
});

Deno.test("insights: today's trend is by the hour; all time takes in every session kept", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const now = Date.now();
  const todayStart = Date.parse(new Date(now).toISOString().slice(0, 10));
  const today = await insertSession(w.db, w.alpha, {
    createdAt: new Date(Math.max(now - 60_000, todayStart)),
  });
  const yesterday = await insertSession(w.db, w.alpha, { createdAt: new Date(now - DAY - 60_000) });
  const old = await insertSession(w.db, w.alpha, { createdAt: new Date(now - 40 * DAY) });
  const HOUR = 3_600_000;
  for (
    const [session, ts, kind] of [
      [today, todayStart + 10 * 60_000, "error"],
      [today, todayStart + 50 * 60_000, "rage_click"],
      [today, todayStart + 5 * HOUR + 1, "error"],
      [yesterday, todayStart - HOUR, "error"],
      [old, old.created_at.getTime() + 1000, "dead_click"],
    ] as const
  ) {
    const data = kind === "error" ? { message: "boom" } : { selector: "a.more", text: "More" };
    await insertMarker(w.db, session.id, { ts, kind, data });
  }
  const hour = (h: number) => new Date(todayStart + h * HOUR).toISOString();

  const day = await w.get("/api/insights?range=today");
  assert.equal(day.res.status, 200);
  assert.deepEqual(day.body.hourly, [
    { hour: hour(0), errors: 1, rageClicks: 1, deadClicks: 0 },
    { hour: hour(5), errors: 1, rageClicks: 0, deadClicks: 0 },
  ]);
  assert.deepEqual((await w.get("/api/insights?range=7d")).body.hourly, []);

  // everything kept, whatever its age (the cleanup is what removes sessions past 7 days)
  const all = await w.get("/api/insights?range=all");
  assert.equal(all.res.status, 200);
  assert.deepEqual(
    all.body.deadClicks.map((
      d: { selector: string; sessions: number },
    ) => [d.selector, d.sessions]),
    [["a.more", 1]],
  );
  const days = all.body.daily.map((d: { day: string }) => d.day);
  assert.equal(days[0], old.created_at.toISOString().slice(0, 10));
  assert.equal(days.length, 3);
});
