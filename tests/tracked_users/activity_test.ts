// Timeline, activity and per-user sessions of one tracked user: window edges, open sessions,
// periods, bucket attribution and page shares on a hand-computed example, keyset pages.
import assert from "node:assert/strict";
import { trackedUserActivity } from "@/core/tracked_users/activity.ts";
import { trackedUserSessions } from "@/core/tracked_users/sessions.ts";
import { trackedUserTimeline } from "@/core/tracked_users/timeline.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";
import {
  batchAt,
  DAY,
  HOUR,
  MINUTE,
  seedTrackedUser,
  urlMarker,
  viewerOf,
} from "@/tests/helpers/tracked_users_factories.ts";

const NOW = new Date("2026-03-10T12:00:00.000Z");
const T = NOW.getTime();
const iso = (ms: number) => new Date(ms).toISOString();

/** The example of the tests below: s1 ends exactly at `from` (24h), s4 starts exactly at `to`. */
async function setup() {
  const t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const { user, sessions } = await seedTrackedUser(db, project, {
    sessions: [
      { start: T - 30 * HOUR, durationMs: 5 * HOUR, eventCount: 50 }, // s0: ends before the window
      { start: T - 26 * HOUR, durationMs: 2 * HOUR, eventCount: 10 }, // s1: ends at `from`
      { start: T - 3 * HOUR, durationMs: 30 * MINUTE, eventCount: 11 }, // s2
      { start: T - 10 * MINUTE, durationMs: null, eventCount: 7 }, // s3: open
      { start: T, durationMs: 0, eventCount: 2 }, // s4: starts at `to`
      { start: T + 1, durationMs: 0, eventCount: 1 }, // s5: starts after `to`
    ],
  });
  const [s0, s1, s2, s3, s4, s5] = sessions;
  await urlMarker(db, s0.id, T - 30 * HOUR, "/old");
  await urlMarker(db, s1.id, T - 26 * HOUR, "/landing");
  await urlMarker(db, s2.id, T - 3 * HOUR, "/home");
  await urlMarker(db, s2.id, T - 3 * HOUR + 10 * MINUTE, "/pricing");
  await urlMarker(db, s2.id, T - 3 * HOUR + 20 * MINUTE, "/home");
  await urlMarker(db, s3.id, T - 10 * MINUTE, "/docs");
  await urlMarker(db, s4.id, T, "/home");
  await urlMarker(db, s5.id, T + 1, "/future");
  await batchAt(db, s1, T - 25 * HOUR, 7); // before the window: no bucket
  await batchAt(db, s1, T - 24 * HOUR, 3); // bucket 0, /landing
  await batchAt(db, s2, T - 3 * HOUR, 5); // bucket 21, /home (marker at the same instant)
  await batchAt(db, s2, T - 3 * HOUR + 15 * MINUTE, 4); // bucket 21, /pricing
  await batchAt(db, s2, T - 3 * HOUR + 25 * MINUTE, 2); // bucket 21, /home
  await batchAt(db, s3, T - 10 * MINUTE, 6); // bucket 23, /docs
  await batchAt(db, s3, T - 10 * MINUTE - 1, 1); // older than every marker: the first, /docs
  await batchAt(db, s4, T, 2); // exactly `to`: the last bucket, /home
  const viewer = viewerOf(project.organization_id);
  return Object.assign(t, { project, user, viewer, s: { s1, s2, s3, s4 } });
}

Deno.test("timeline: inclusion at both window edges and for open sessions; periods between url markers", async () => {
  await using t = await setup();
  const { s1, s2, s3, s4 } = t.s;
  const timeline = await trackedUserTimeline(t.deps, t.viewer, t.user.id, "24h", NOW);
  assert.equal(timeline.range, "24h");
  assert.equal(timeline.from, iso(T - 24 * HOUR));
  assert.equal(timeline.to, iso(T));
  assert.deepEqual(timeline.sessions.map((s) => s.id), [s1.id, s2.id, s3.id, s4.id]);
  assert.deepEqual(timeline.pages, ["/landing", "/home", "/pricing", "/docs"]);
  const period = (pathname: string, from: number, to: number) => ({
    url: `https://shop.test${pathname}`,
    pathname,
    startedAt: iso(from),
    endedAt: iso(to),
    duration: to - from,
  });
  assert.deepEqual(timeline.sessions[1], {
    id: s2.id,
    externalId: s2.external_id,
    startedAt: iso(T - 3 * HOUR),
    endedAt: iso(T - 3 * HOUR + 30 * MINUTE),
    duration: 30 * MINUTE,
    url: "https://shop.test/",
    periods: [
      period("/home", T - 3 * HOUR, T - 3 * HOUR + 10 * MINUTE),
      period("/pricing", T - 3 * HOUR + 10 * MINUTE, T - 3 * HOUR + 20 * MINUTE),
      period("/home", T - 3 * HOUR + 20 * MINUTE, T - 3 * HOUR + 30 * MINUTE),
    ],
  });
  // The open session's last period runs to `to`.
  assert.equal(timeline.sessions[2].endedAt, null);
  assert.deepEqual(timeline.sessions[2].periods, [period("/docs", T - 10 * MINUTE, T)]);
  assert.deepEqual(timeline.sessions[3].periods, [period("/home", T, T)]);

  const short = await trackedUserTimeline(t.deps, t.viewer, t.user.id, "6h", NOW);
  assert.equal(short.from, iso(T - 6 * HOUR));
  assert.deepEqual(short.sessions.map((s) => s.id), [s2.id, s3.id, s4.id]);
  assert.deepEqual(short.pages, ["/home", "/pricing", "/docs"]);
  // One millisecond later, s1 (which ended at the old `from`) is out.
  const later = await trackedUserTimeline(t.deps, t.viewer, t.user.id, "24h", new Date(T + 1));
  assert.equal(later.sessions[0].id, s2.id);
  const week = await trackedUserTimeline(t.deps, t.viewer, t.user.id, "7d", NOW);
  assert.equal(week.sessions.length, 5, "s0 too; s5 starts after `to`");
});

Deno.test("activity: buckets, byPage, page shares and summary on a hand-computed example", async () => {
  await using t = await setup();
  const activity = await trackedUserActivity(t.deps, t.viewer, t.user.id, {
    range: "24h",
    pageLimit: 5,
  }, NOW);
  assert.equal(activity.bucketMs, 3_600_000);
  assert.equal(activity.buckets.length, 24);
  assert.deepEqual(
    activity.buckets.map((b) => b.t),
    Array.from({ length: 24 }, (_, i) => iso(T - 24 * HOUR + i * HOUR)),
  );
  const filled = Object.fromEntries(
    activity.buckets.map((b, i) => [i, b] as const).filter(([, b]) => b.total > 0),
  );
  assert.deepEqual(Object.keys(filled), ["0", "21", "23"], "empty buckets stay in the grid");
  assert.deepEqual(filled[0].byPage, [{ pathname: "/landing", count: 3 }]);
  assert.equal(filled[0].total, 3);
  assert.deepEqual(filled[21].byPage, [{ pathname: "/home", count: 7 }, {
    pathname: "/pricing",
    count: 4,
  }]);
  assert.equal(filled[21].total, 11);
  assert.deepEqual(filled[23].byPage, [{ pathname: "/docs", count: 7 }, {
    pathname: "/home",
    count: 2,
  }]);
  assert.equal(filled[23].total, 9);
  assert.ok(activity.buckets.filter((b) => b.total === 0).every((b) => b.byPage.length === 0));

  // Periods: /landing 2 h, /home 10 + 10 + 0 min, /pricing 10 min, /docs 10 min (open, to `to`).
  assert.deepEqual(activity.pageDistribution, [
    { pathname: "/landing", duration: 7_200_000, share: 0.75, visits: 1 },
    { pathname: "/home", duration: 1_200_000, share: 0.125, visits: 3 },
    { pathname: "/docs", duration: 600_000, share: 0.0625, visits: 1 },
    { pathname: "/pricing", duration: 600_000, share: 0.0625, visits: 1 },
  ]);
  assert.equal(activity.pageDistribution.reduce((sum, p) => sum + p.share, 0), 1);
  assert.deepEqual(activity.summary, {
    sessionCount: 4,
    totalActiveTime: 9_000_000,
    avgSessionDuration: 2_250_000,
    totalEvents: 30,
    uniquePages: 4,
    topPage: "/landing",
    firstEventAt: iso(T - 26 * HOUR),
    lastEventAt: iso(T),
  });

  // pageLimit keeps the window's top pages by events (/home 9, /docs 7) in every bucket.
  const top2 = await trackedUserActivity(t.deps, t.viewer, t.user.id, {
    range: "24h",
    pageLimit: 2,
  }, NOW);
  assert.deepEqual(top2.buckets[0], { t: iso(T - 24 * HOUR), total: 3, byPage: [] });
  assert.deepEqual(top2.buckets[21].byPage, [{ pathname: "/home", count: 7 }]);
  assert.deepEqual(top2.buckets[23].byPage, [{ pathname: "/docs", count: 7 }, {
    pathname: "/home",
    count: 2,
  }]);
  assert.equal(top2.pageDistribution.length, 4, "the distribution is never cut");

  const short = await trackedUserActivity(t.deps, t.viewer, t.user.id, {
    range: "6h",
    pageLimit: 5,
  }, NOW);
  assert.equal(short.bucketMs, 900_000);
  assert.equal(short.buckets.length, 24);
  // T-3h is 12 quarter hours into the window; its +15 and +25 min batches fall in the next.
  assert.deepEqual(short.buckets.slice(12, 14).map((b) => b.total), [5, 6]);
  const week = await trackedUserActivity(t.deps, t.viewer, t.user.id, {
    range: "7d",
    pageLimit: 5,
  }, NOW);
  assert.equal(week.bucketMs, 21_600_000);
  assert.equal(week.buckets.length, 28);
  assert.equal(week.buckets.reduce((sum, b) => sum + b.total, 0), 30, "every batch of s1..s4");
});

Deno.test("activity and timeline: a user without sessions has an empty grid and a null summary", async () => {
  await using t = await setup();
  const { user } = await seedTrackedUser(t.db.kysely, t.project);
  const activity = await trackedUserActivity(t.deps, t.viewer, user.id, {
    range: "6h",
    pageLimit: 5,
  }, NOW);
  assert.equal(activity.buckets.length, 24);
  assert.ok(activity.buckets.every((b) => b.total === 0 && b.byPage.length === 0));
  assert.deepEqual(activity.pageDistribution, []);
  assert.deepEqual(activity.summary, {
    sessionCount: 0,
    totalActiveTime: 0,
    avgSessionDuration: 0,
    totalEvents: 0,
    uniquePages: 0,
    topPage: null,
    firstEventAt: null,
    lastEventAt: null,
  });
  const timeline = await trackedUserTimeline(t.deps, t.viewer, user.id, "24h", NOW);
  assert.deepEqual([timeline.sessions, timeline.pages], [[], []]);
});

Deno.test("timeline and activity over HTTP: default 24h, no-store, unknown range and bad pageLimit 400", async () => {
  await using t = await setup();
  const { cookie } = await signedInUser(t, {
    role: "VIEWER",
    organizationId: t.project.organization_id,
  });
  for (const kind of ["timeline", "activity"]) {
    const res = await call(t.app, "GET", `/api/tracked-users/${t.user.id}/${kind}`, { cookie });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const body = await res.json();
    assert.equal(body.range, "24h");
    assert.equal(Date.parse(body.to) - Date.parse(body.from), DAY);
    for (const query of ["range=30d", "range=", "range=24H"]) {
      const bad = await call(t.app, "GET", `/api/tracked-users/${t.user.id}/${kind}?${query}`, {
        cookie,
      });
      assert.equal(bad.status, 400, `${kind}?${query}`);
    }
  }
  for (const query of ["pageLimit=0", "pageLimit=101", "pageLimit=two"]) {
    const bad = await call(t.app, "GET", `/api/tracked-users/${t.user.id}/activity?${query}`, {
      cookie,
    });
    assert.equal(bad.status, 400, query);
  }
  const ok = await call(
    t.app,
    "GET",
    `/api/tracked-users/${t.user.id}/activity?range=7d&pageLimit=100`,
    {
      cookie,
    },
  );
  assert.equal((await ok.json()).bucketMs, 21_600_000);
});

Deno.test("per-user sessions: newest first, keyset pages with every session once, slim items", async () => {
  await using t = await setup();
  const db = t.db.kysely;
  const { user, sessions } = await seedTrackedUser(db, t.project, {
    externalId: "ext-pages",
    traits: { name: "Paged" },
    sessions: [1, 2, 3, 4, 5].map((i) => ({ start: T - i * HOUR })),
  });
  // Two sessions created in the same microsecond, ordered by id.
  const tied = await Promise.all(
    [0, 1].map(() =>
      insertSession(db, t.project, { trackedUserId: user.id, createdAt: new Date(T - 3 * HOUR) })
    ),
  );
  await insertSession(db, t.project, { createdAt: new Date(T) }); // anonymous: not listed
  const expected = [...sessions, ...tied].toSorted((a, b) =>
    b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1)
  ).map((s) => s.id);

  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    assert.ok(++pages <= expected.length + 1, "the cursor never ended");
    const page = await trackedUserSessions(t.deps, t.viewer, user.id, { cursor, limit: 2 });
    assert.ok(page.data.length <= 2);
    for (const item of page.data) {
      assert.equal(item.trackedUserId, user.id);
      assert.equal(item.userId, "ext-pages");
      assert.equal(item.userDisplayName, null);
      assert.equal(item.userTraits, null);
    }
    seen.push(...page.data.map((s) => s.id));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  assert.deepEqual(seen, expected);

  const { cookie } = await signedInUser(t, {
    role: "VIEWER",
    organizationId: t.project.organization_id,
  });
  const res = await call(t.app, "GET", `/api/tracked-users/${user.id}/sessions?limit=1`, {
    cookie,
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const body = await res.json();
  const first = sessions[0];
  assert.deepEqual(body.data, [{
    id: first.id,
    externalId: first.external_id,
    projectId: t.project.id,
    projectName: "Storefront",
    url: "https://shop.test/",
    duration: MINUTE,
    eventCount: 10,
    createdAt: iso(T - HOUR),
    startedAt: iso(T - HOUR),
    trackedUserId: user.id,
    userId: "ext-pages",
    userDisplayName: null,
    userTraits: null,
    errorCount: 0,
    rageClickCount: 0,
    deadClickCount: 0,
    browser: null,
    os: null,
    device: null,
    recordingReason: "sampled",
    triggeredAt: null,
    commentCount: 0,
    pinned: false,
    networkErrorCount: 0,
  }]);
  assert.ok(body.nextCursor);
  for (const query of ["limit=0", "limit=101", "cursor=%%%", `cursor=${"A".repeat(20)}`]) {
    const bad = await call(t.app, "GET", `/api/tracked-users/${user.id}/sessions?${query}`, {
      cookie,
    });
    assert.equal(bad.status, 400, query);
  }
});
