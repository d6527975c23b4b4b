// GET /api/tracked-users and /summary: rollups, every sort and direction, status windows (online
// at exactly 120000 ms and not at 120001), search, projectIds, validation and scoping.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { trackedUserList, trackedUserSummary } from "@/core/tracked_users/list.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";
import {
  DAY,
  HOUR,
  MINUTE,
  seedTrackedUser,
  viewerOf,
} from "@/tests/helpers/tracked_users_factories.ts";

const NOW = new Date("2026-03-10T12:00:00.000Z");
const T = NOW.getTime();

async function setup() {
  const t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const viewer = viewerOf(project.organization_id);
  return Object.assign(t, { project, viewer });
}

async function rollups(t: Awaited<ReturnType<typeof setup>>, id: string) {
  return await t.db.kysely.selectFrom("tracked_users")
    .select(["session_count", "active_time", "last_event_at"]).where("id", "=", id)
    .executeTakeFirstOrThrow();
}

Deno.test("tracked users: the rollups follow sessions through growth, relink and deletion", async () => {
  await using t = await setup();
  const db = t.db.kysely;
  const { user: a, sessions } = await seedTrackedUser(db, t.project, {
    sessions: [{ start: T - 2 * HOUR, durationMs: 10 * MINUTE }, {
      start: T - HOUR,
      durationMs: null,
    }],
  });
  const { user: b } = await seedTrackedUser(db, t.project);
  // An open session counts with its start as its latest moment.
  assert.deepEqual(await rollups(t, a.id), {
    session_count: 2,
    active_time: 10 * MINUTE,
    last_event_at: new Date(T - HOUR),
  });
  // Ingest moves the open session's end forward.
  await db.updateTable("sessions").set({ ended_at: new Date(T - 30 * MINUTE) })
    .where("id", "=", sessions[1].id).execute();
  assert.deepEqual(await rollups(t, a.id), {
    session_count: 2,
    active_time: 40 * MINUTE,
    last_event_at: new Date(T - 30 * MINUTE),
  });
  // Relinking the latest session moves it, with its time, to the other user.
  await db.updateTable("sessions").set({ tracked_user_id: b.id })
    .where("id", "=", sessions[1].id).execute();
  assert.deepEqual(await rollups(t, a.id), {
    session_count: 1,
    active_time: 10 * MINUTE,
    last_event_at: new Date(T - 2 * HOUR + 10 * MINUTE),
  });
  assert.deepEqual(await rollups(t, b.id), {
    session_count: 1,
    active_time: 30 * MINUTE,
    last_event_at: new Date(T - 30 * MINUTE),
  });
  // Deleting sessions (as the sweep does, several at once) recounts.
  await insertSession(db, t.project, { trackedUserId: b.id, createdAt: new Date(T - 3 * DAY) });
  await db.deleteFrom("sessions").execute();
  for (const id of [a.id, b.id]) {
    assert.deepEqual(await rollups(t, id), {
      session_count: 0,
      active_time: 0,
      last_event_at: null,
    });
  }
});

// Six users whose sort keys differ (and tie on purpose) so every order is checked fully.
async function seedSortable(t: Awaited<ReturnType<typeof setup>>) {
  const db = t.db.kysely;
  const make = (externalId: string, createdAgo: number, sessions: [number, number][]) =>
    seedTrackedUser(db, t.project, {
      externalId,
      createdAt: new Date(T - createdAgo),
      sessions: sessions.map(([ago, durationMs]) => ({ start: T - ago, durationMs })),
    });
  await make("u1", 6 * DAY, [[5 * DAY, 5 * MINUTE], [HOUR, MINUTE]]);
  await make("u2", 5 * DAY, [[2 * HOUR, 20 * MINUTE]]);
  await make("u3", 4 * DAY, [[3 * DAY, 3 * MINUTE], [2 * DAY, 3 * MINUTE], [DAY, 0]]);
  await make("u4", 3 * DAY, []);
  await make("u5", 2 * DAY, [[10 * MINUTE, 6 * MINUTE]]);
  await make("u6", DAY, [[10 * MINUTE, 6 * MINUTE]]);
  return await db.selectFrom("tracked_users").selectAll().execute();
}

Deno.test("tracked users: every sort in both directions pages through the whole set in SQL order", async () => {
  await using t = await setup();
  const users = await seedSortable(t);
  const key: Record<string, (u: (typeof users)[number]) => number> = {
    "last-seen": (u) => u.last_event_at?.getTime() ?? -Infinity,
    sessions: (u) => u.session_count,
    "active-time": (u) => u.active_time,
    newest: (u) => u.created_at.getTime(),
  };
  for (const sort of ["last-seen", "sessions", "active-time", "newest"] as const) {
    for (const sortDir of ["desc", "asc"] as const) {
      const sign = sortDir === "desc" ? -1 : 1;
      const expected = users.toSorted((a, b) =>
        sign * (key[sort](a) - key[sort](b) || (a.id < b.id ? -1 : 1))
      ).map((u) => u.external_id);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        assert.ok(++pages <= expected.length + 1, `${sort} ${sortDir}: the cursor never ended`);
        const page = await trackedUserList(
          t.deps,
          t.viewer,
          { sort, sortDir, cursor, limit: 4 },
          NOW,
        );
        assert.ok(page.data.length <= 4);
        seen.push(...page.data.map((u) => u.externalId));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      assert.deepEqual(seen, expected, `${sort} ${sortDir}`);
    }
  }
});

Deno.test("tracked users: statuses come from the latest session end; online is inclusive at 120000 ms", async () => {
  await using t = await setup();
  const db = t.db.kysely;
  const endingAgo = async (externalId: string, ago: number | null) =>
    await seedTrackedUser(db, t.project, {
      externalId,
      sessions: ago === null ? [] : [{ start: T - ago - MINUTE, durationMs: MINUTE }],
    });
  await endingAgo("online-edge", 120_000);
  await endingAgo("just-not-online", 120_001);
  await endingAgo("day-edge", DAY);
  await endingAgo("past-day", DAY + 1);
  await endingAgo("week-edge", 7 * DAY);
  await endingAgo("past-week", 7 * DAY + 1);
  await endingAgo("never", null);
  const list = async (statuses?: ("ONLINE" | "ACTIVE_24H" | "IDLE_7D" | "DORMANT")[]) =>
    (await trackedUserList(t.deps, t.viewer, {
      statuses,
      sort: "last-seen",
      sortDir: "desc",
      limit: 100,
    }, NOW)).data;

  const all = await list();
  assert.deepEqual(all.map((u) => [u.externalId, u.status]), [
    ["online-edge", "ONLINE"],
    ["just-not-online", "ACTIVE_24H"],
    ["day-edge", "ACTIVE_24H"],
    ["past-day", "IDLE_7D"],
    ["week-edge", "IDLE_7D"],
    ["past-week", "DORMANT"],
    ["never", "DORMANT"],
  ]);
  assert.equal(all[0].lastEventAt, new Date(T - 120_000).toISOString());
  assert.equal(all.at(-1)!.lastEventAt, null);
  assert.deepEqual((await list(["ONLINE"])).map((u) => u.externalId), ["online-edge"]);
  assert.deepEqual((await list(["ACTIVE_24H"])).map((u) => u.externalId), [
    "just-not-online",
    "day-edge",
  ]);
  assert.deepEqual((await list(["IDLE_7D"])).map((u) => u.externalId), ["past-day", "week-edge"]);
  assert.deepEqual((await list(["DORMANT"])).map((u) => u.externalId), ["past-week", "never"]);
  assert.deepEqual((await list(["ONLINE", "DORMANT"])).map((u) => u.externalId), [
    "online-edge",
    "past-week",
    "never",
  ]);
  // One millisecond later the edge user is no longer online.
  const later = await trackedUserList(t.deps, t.viewer, {
    statuses: ["ONLINE"],
    sort: "last-seen",
    sortDir: "desc",
    limit: 10,
  }, new Date(T + 1));
  assert.deepEqual(later.data, []);

  // Two users created within the last 7 days (this test's seeds are all new) and one older.
  await sql`UPDATE tracked_users SET created_at = ${new Date(T - 7 * DAY - 1)}
    WHERE external_id = 'never'`.execute(db);
  assert.deepEqual(await trackedUserSummary(t.deps, t.viewer, NOW), {
    total: 7,
    onlineNow: 1,
    active24h: 3,
    newThisWeek: 6,
  });
  assert.deepEqual((await trackedUserSummary(t.deps, t.viewer, new Date(T + 1))).onlineNow, 0);
});

Deno.test("tracked users: GET /api/tracked-users answers items, searches, filters projects, no-store", async () => {
  await using t = await setup();
  const db = t.db.kysely;
  const owner = await signedInUser(t, {
    role: "VIEWER",
    organizationId: t.project.organization_id,
  });
  const other = await insertProject(db, {
    organizationId: t.project.organization_id,
    name: "Docs",
  });
  const foreign = await insertProject(db);
  const now = Date.now();
  const { user: ada } = await seedTrackedUser(db, t.project, {
    externalId: "ext-ada",
    traits: { name: "  Ada Lovelace ", plan: "pro" },
    traitKey: "name",
    sessions: [{ start: now - 30_000, durationMs: 10_000 }],
  });
  await seedTrackedUser(db, other, { externalId: "ext-bob", sessions: [{ start: now - DAY }] });
  await seedTrackedUser(db, foreign, { externalId: "ext-foreign" });

  const res = await call(t.app, "GET", "/api/tracked-users", { cookie: owner.cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const body = await res.json();
  assert.equal(body.nextCursor, null);
  assert.deepEqual(body.data.map((u: { externalId: string }) => u.externalId), [
    "ext-ada",
    "ext-bob",
  ]);
  assert.deepEqual(body.data[0], {
    id: ada.id,
    externalId: "ext-ada",
    displayName: "Ada Lovelace",
    projectId: t.project.id,
    projectName: "Storefront",
    traits: { name: "  Ada Lovelace ", plan: "pro" },
    sessionCount: 1,
    lastEventAt: new Date(now - 20_000).toISOString(),
    status: "ONLINE",
    activeTime7d: 10_000,
    createdAt: body.data[0].createdAt,
  });

  const get = async (query: string) =>
    (await (await call(t.app, "GET", `/api/tracked-users?${query}`, { cookie: owner.cookie }))
      .json()).data.map((u: { externalId: string }) => u.externalId);
  assert.deepEqual(await get("search=LOVELACE"), ["ext-ada"], "display name, any case");
  assert.deepEqual(await get("search=EXT-B"), ["ext-bob"], "externalId, any case");
  assert.deepEqual(await get("search=%25"), [], "LIKE wildcards are literal");
  assert.deepEqual(await get(`projectIds=${other.id}`), ["ext-bob"]);
  assert.deepEqual(await get(`projectIds=${foreign.id}`), [], "another organization's project");
  assert.deepEqual(await get(`projectIds=${foreign.id},${t.project.id}`), ["ext-ada"]);
  assert.deepEqual(await get("statuses=ACTIVE_24H,IDLE_7D&sort=newest&sortDir=asc"), ["ext-bob"]);

  const summary = await call(t.app, "GET", "/api/tracked-users/summary", { cookie: owner.cookie });
  assert.equal(summary.status, 200);
  assert.equal(summary.headers.get("cache-control"), "no-store");
  assert.deepEqual(await summary.json(), { total: 2, onlineNow: 1, active24h: 2, newThisWeek: 2 });
});

Deno.test("tracked users: bad queries are 400; signed out 401; no active organization 400", async () => {
  await using t = await setup();
  const { cookie } = await signedInUser(t, { organizationId: t.project.organization_id });
  for (
    const query of [
      "statuses=ONLINE,ASLEEP",
      "sort=name",
      "sortDir=up",
      "limit=0",
      "limit=101",
      "limit=abc",
      "cursor=not-a-cursor",
    ]
  ) {
    const res = await call(t.app, "GET", `/api/tracked-users?${query}`, { cookie });
    assert.equal(res.status, 400, query);
    assert.equal((await res.json()).kind, "validation");
  }
  // A cursor made for one order is refused by another.
  await seedTrackedUser(t.db.kysely, t.project);
  await seedTrackedUser(t.db.kysely, t.project);
  const first = await (await call(t.app, "GET", "/api/tracked-users?limit=1", { cookie })).json();
  assert.ok(first.nextCursor);
  const mixed = await call(
    t.app,
    "GET",
    `/api/tracked-users?sort=sessions&cursor=${first.nextCursor}`,
    {
      cookie,
    },
  );
  assert.equal(mixed.status, 400);

  for (const path of ["/api/tracked-users", "/api/tracked-users/summary"]) {
    const signedOut = await call(t.app, "GET", path);
    assert.equal(signedOut.status, 401);
    assert.equal((await signedOut.json()).kind, "auth");
  }
  const loner = await signedInUser(t);
  await t.db.kysely.updateTable("users").set({ active_organization_id: null })
    .where("id", "=", loner.user.id).execute();
  const none = await call(t.app, "GET", "/api/tracked-users", { cookie: loner.cookie });
  assert.equal(none.status, 400);
  assert.equal((await none.json()).kind, "validation");
});
