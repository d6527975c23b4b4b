// GET /api/sessions: filters, sorts, ranges, the display-name chain and keyset pagination.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { insertSession, insertTrackedUser } from "@/tests/helpers/sessions_factories.ts";

const DAY = 86_400_000;
const ids = (body: { data: { id: string }[] }) => body.data.map((s) => s.id);

Deno.test("sessions list: item shape, newest first by default, no-store", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const user = await insertTrackedUser(w.db, w.alpha, {
    externalId: "u-1",
    traits: { plan: "pro", name: "Ada" },
    traitKey: "name",
  });
  const older = await insertSession(w.db, w.alpha, {
    createdAt: new Date(Date.now() - 60_000),
    durationMs: 5_000,
    trackedUserId: user.id,
    eventCount: 7,
  });
  const newer = await insertSession(w.db, w.beta, { durationMs: null });
  await insertSession(w.db, w.foreign);
  const { res, body } = await w.get("/api/sessions");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(ids(body), [newer.id, older.id]);
  assert.equal(body.nextCursor, null);
  assert.deepEqual(body.data[1], {
    id: older.id,
    externalId: older.external_id,
    projectId: w.alpha.id,
    projectName: "Alpha",
    url: "https://shop.test/",
    duration: 5_000,
    eventCount: 7,
    createdAt: older.created_at.toISOString(),
    startedAt: older.started_at.toISOString(),
    trackedUserId: user.id,
    userId: "u-1",
    userDisplayName: "Ada",
    userTraits: { plan: "pro", name: "Ada" },
    errorCount: 0,
    rageClickCount: 0,
    deadClickCount: 0,
    networkErrorCount: 0,
    browser: null,
    os: null,
    device: null,
    recordingReason: "sampled",
    triggeredAt: null,
    commentCount: 0,
    pinned: false,
  });
  assert.equal(body.data[0].duration, 0); // open session
  assert.equal(body.data[0].userId, null);
  assert.equal(body.data[0].userDisplayName, null);
  assert.equal(body.data[0].userTraits, null);
});

Deno.test("sessions list: the date sort is when a session started, not when its first batch came", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  const now = Date.now();
  // Started first, but its first batch arrived last (a long first flush).
  const early = await insertSession(w.db, w.alpha, {
    startedAt: new Date(now - 50_000),
    createdAt: new Date(now - 1_000),
  });
  const late = await insertSession(w.db, w.alpha, {
    startedAt: new Date(now - 20_000),
    createdAt: new Date(now - 19_000),
  });
  const { body } = await w.get("/api/sessions?sort=date&sortDir=desc");
  assert.deepEqual(ids(body), [late.id, early.id]);
  assert.equal(body.data[1].startedAt, new Date(now - 50_000).toISOString());
  assert.equal(body.data[1].createdAt, new Date(now - 1_000).toISOString());
  const asc = await w.get("/api/sessions?sort=date&sortDir=asc");
  assert.deepEqual(ids(asc.body), [early.id, late.id]);
});

Deno.test("sessions list: display name follows the chain step by step", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  await w.db.updateTable("projects").set({ display_name_trait_key: "email" })
    .where("id", "=", w.alpha.id).execute();
  const traits = { email: " a@x.test ", nick: 42, empty: "" };
  const steps: [Parameters<typeof insertTrackedUser>[2], string][] = [
    [{ customName: " Custom ", traitKey: "nick" }, "Custom"],
    [{ customName: "", traitKey: "nick" }, "42"],
    [{ traitKey: "empty" }, "a@x.test"],
    [{ traits: { nick: true }, traitKey: "missing" }, "ext-4"],
  ];
  for (const [i, [overrides, expected]] of steps.entries()) {
    const user = await insertTrackedUser(w.db, w.alpha, {
      externalId: `ext-${i + 1}`,
      traits,
      ...overrides,
    });
    const session = await insertSession(w.db, w.alpha, { trackedUserId: user.id });
    const { body } = await w.get("/api/sessions?limit=1");
    assert.equal(body.data[0].id, session.id);
    assert.equal(body.data[0].userDisplayName, expected, `step ${i + 1}`);
  }
});

Deno.test("sessions list: with no name set anywhere, the name trait, then the email trait, then the id", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  const steps: [Record<string, unknown>, string][] = [
    [{ name: " Ada Lovelace ", email: "ada@x.test" }, "Ada Lovelace"],
    [{ name: "", email: "ada@x.test" }, "ada@x.test"],
    [{ name: { first: "Ada" }, plan: "pro" }, "user-3"],
  ];
  for (const [i, [traits, expected]] of steps.entries()) {
    const user = await insertTrackedUser(w.db, w.alpha, { externalId: `user-${i + 1}`, traits });
    const session = await insertSession(w.db, w.alpha, { trackedUserId: user.id });
    const { body } = await w.get("/api/sessions?limit=1");
    assert.equal(body.data[0].id, session.id);
    assert.equal(body.data[0].userDisplayName, expected, `step ${i + 1}`);
  }
});

Deno.test("sessions list: search is a case-insensitive substring of externalId, literally", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  const hit = await insertSession(w.db, w.alpha, { externalId: "AbC-def_1%" });
  await insertSession(w.db, w.alpha, { externalId: "xyz-abd" });
  await insertSession(w.db, w.foreign, { externalId: "abc-def-foreign" });
  for (const q of ["bc-DE", "ABC", "f_1", "_1%"]) {
    const { body } = await w.get(`/api/sessions?search=${encodeURIComponent(q)}`);
    assert.deepEqual(ids(body), [hit.id], q);
  }
  assert.deepEqual(ids((await w.get("/api/sessions?search=%25")).body), [hit.id]);
  assert.deepEqual(ids((await w.get("/api/sessions?search=nothing")).body), []);
});

Deno.test("sessions list: projectIds narrows; another organization's ids are ignored", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  const a = await insertSession(w.db, w.alpha, { createdAt: new Date(Date.now() - 1000) });
  const b = await insertSession(w.db, w.beta);
  await insertSession(w.db, w.foreign);
  const list = async (projectIds: string) =>
    ids((await w.get(`/api/sessions?projectIds=${projectIds}`)).body);
  assert.deepEqual(await list(w.alpha.id), [a.id]);
  assert.deepEqual(await list(`${w.beta.id},${w.alpha.id}`), [b.id, a.id]);
  assert.deepEqual(await list(`${w.alpha.id},${w.foreign.id}`), [a.id]);
  assert.deepEqual(await list(w.foreign.id), []);
  assert.deepEqual(await list(""), [b.id, a.id]);
});

Deno.test("sessions list: range boundaries (today from 00:00 UTC, 7d, 30d, all, retention)", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  const now = Date.now();
  const midnight = Math.floor(now / DAY) * DAY;
  const at = (ms: number) => insertSession(w.db, w.alpha, { createdAt: new Date(ms) });
  const todayStart = await at(midnight);
  const yesterdayEnd = await at(midnight - 1);
  const in7 = await at(now - 7 * DAY + 60_000);
  const out7 = await at(now - 7 * DAY - 60_000);
  const in30 = await at(now - 30 * DAY + 60_000);
  const out30 = await at(now - 30 * DAY - 60_000);
  const list = async (range: string) =>
    new Set(ids((await w.get(`/api/sessions?range=${range}&limit=100`)).body));
  const today = await list("today");
  assert.ok(today.has(todayStart.id) && !today.has(yesterdayEnd.id));
  const week = await list("7d");
  assert.ok(week.has(in7.id) && week.has(yesterdayEnd.id) && !week.has(out7.id));
  const month = await list("30d");
  assert.ok(month.has(in30.id) && month.has(out7.id) && !month.has(out30.id));
  assert.equal((await list("all")).size, 6);
  assert.equal((await list("retention")).size, 6);
});

Deno.test("sessions list: each sort and direction", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  const base = Date.now() - 3_600_000;
  const s = [
    await insertSession(w.db, w.alpha, { createdAt: new Date(base), durationMs: 3_000 }),
    await insertSession(w.db, w.alpha, { createdAt: new Date(base + 1000), durationMs: 1_000 }),
    await insertSession(w.db, w.alpha, { createdAt: new Date(base + 2000), durationMs: 2_000 }),
  ].map((x) => x.id);
  const list = async (q: string) => ids((await w.get(`/api/sessions?${q}`)).body);
  assert.deepEqual(await list(""), [s[2], s[1], s[0]]);
  assert.deepEqual(await list("sort=date&sortDir=asc"), [s[0], s[1], s[2]]);
  assert.deepEqual(await list("sort=duration"), [s[0], s[2], s[1]]);
  assert.deepEqual(await list("sort=duration&sortDir=asc"), [s[1], s[2], s[0]]);
});

Deno.test("sessions list: invalid query values answer 400", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  for (
    const q of [
      "sort=name",
      "sortDir=up",
      "range=1y",
      "limit=0",
      "limit=101",
      "limit=abc",
      "limit=2.5",
      "cursor=!!!",
      "cursor=e30",
    ]
  ) {
    const { res, body } = await w.get(`/api/sessions?${q}`);
    assert.equal(res.status, 400, q);
    assert.equal(body.kind, "validation", q);
  }
  // A cursor of another sort order is refused too.
  await insertSession(w.db, w.alpha);
  await insertSession(w.db, w.alpha);
  const { body } = await w.get("/api/sessions?limit=1");
  const { res } = await w.get(`/api/sessions?sort=duration&cursor=${body.nextCursor}`);
  assert.equal(res.status, 400);
});

Deno.test("sessions list: signed out 401, no active organization 400", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  assert.equal((await call(t.app, "GET", "/api/sessions")).status, 401);
  await w.db.updateTable("users").set({ active_organization_id: null })
    .where("id", "=", w.me.user.id).execute();
  const { res, body } = await w.get("/api/sessions");
  assert.equal(res.status, 400);
  assert.equal(body.kind, "validation");
});
