// The timeline stays bounded for a user with more sessions, and a session with more url markers,
// than it returns: the newest sessions, each session's first periods, and the totals to say so.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { TIMELINE_LIMITS, trackedUserTimeline } from "@/core/tracked_users/timeline.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSessions, insertTrackedUser } from "@/tests/helpers/sessions_factories.ts";
import { MINUTE, urlMarker, viewerOf } from "@/tests/helpers/tracked_users_factories.ts";

// Near the real clock, so the HTTP call (whose window ends at the server's now) sees the same data.
const NOW = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const T = NOW.getTime();
const EXTRA = 7;

Deno.test("timeline: over the session cap, the newest sessions come back oldest first, with the total", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const user = await insertTrackedUser(db, project);
  const count = TIMELINE_LIMITS.sessions + EXTRA;
  // One session a minute, the newest starting 10 minutes before `to`, all within 24 h.
  const rows = await insertSessions(
    db,
    project,
    Array.from({ length: count }, (_, i) => ({
      createdAt: new Date(T - (10 + i) * MINUTE),
      durationMs: 30_000,
      trackedUserId: user.id,
    })),
  );
  const newestFirst = [...rows].sort((a, b) => b.started_at.getTime() - a.started_at.getTime());
  const expected = newestFirst.slice(0, TIMELINE_LIMITS.sessions).reverse().map((s) => s.id);
  for (const s of newestFirst.slice(0, 3)) {
    await urlMarker(db, s.id, s.started_at.getTime(), "/new");
  }
  await urlMarker(db, newestFirst.at(-1)!.id, newestFirst.at(-1)!.started_at.getTime(), "/old");

  const viewer = viewerOf(project.organization_id);
  const timeline = await trackedUserTimeline(t.deps, viewer, user.id, "24h", NOW);
  assert.equal(timeline.totalSessions, count);
  assert.equal(timeline.truncated, true);
  assert.deepEqual(timeline.sessions.map((s) => s.id), expected);
  assert.deepEqual(timeline.pages, ["/new"], "the oldest session's page is left out with it");

  // A narrower window holding fewer sessions than the cap is whole.
  const short = await trackedUserTimeline(t.deps, viewer, user.id, "6h", NOW);
  assert.equal(short.totalSessions, count); // 207 minutes fit in 6 h
  const hour = new Date(T - 150 * MINUTE);
  const early = await trackedUserTimeline(t.deps, viewer, user.id, "6h", hour);
  assert.equal(early.truncated, false);
  assert.equal(early.totalSessions, early.sessions.length);
  assert.equal(early.sessions.length, count - 140);

  // Over HTTP the additive fields are part of the documented answer.
  const { cookie } = await signedInUser(t, {
    role: "VIEWER",
    organizationId: project.organization_id,
  });
  const res = await call(t.app, "GET", `/api/tracked-users/${user.id}/timeline?range=7d`, {
    cookie,
  });
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.sessions.length, TIMELINE_LIMITS.sessions);
  assert.equal(body.totalSessions, count);
  assert.equal(body.truncated, true);
});

Deno.test("timeline: a session with more url markers than the cap keeps its first periods", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const user = await insertTrackedUser(db, project);
  const start = T - 60 * MINUTE;
  const [session] = await insertSessions(db, project, [
    { createdAt: new Date(start), durationMs: 50 * MINUTE, trackedUserId: user.id },
  ]);
  const markers = TIMELINE_LIMITS.periods + EXTRA;
  await db.insertInto("markers").values(
    Array.from({ length: markers }, (_, i) => ({
      session_id: session.id,
      session_created_at: session.created_at,
      ts: start + i * 10_000,
      kind: "url",
      data: sql`${
        JSON.stringify({ url: `https://shop.test/p${i}`, pathname: `/p${i}` })
      }::text::jsonb`,
    })),
  ).execute();

  const viewer = viewerOf(project.organization_id);
  const timeline = await trackedUserTimeline(t.deps, viewer, user.id, "24h", NOW);
  assert.equal(timeline.totalSessions, 1);
  assert.equal(timeline.truncated, true);
  const periods = timeline.sessions[0].periods;
  assert.equal(periods.length, TIMELINE_LIMITS.periods);
  assert.deepEqual(periods.map((p) => p.pathname), periods.map((_, i) => `/p${i}`));
  const last = periods.at(-1)!;
  assert.equal(
    Date.parse(last.endedAt) - Date.parse(last.startedAt),
    10_000,
    "ends at the next marker",
  );
  assert.equal(timeline.pages.length, TIMELINE_LIMITS.periods);
});

Deno.test("timeline: at the caps exactly, nothing is truncated", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const user = await insertTrackedUser(db, project);
  const rows = await insertSessions(
    db,
    project,
    Array.from({ length: TIMELINE_LIMITS.sessions }, (_, i) => ({
      createdAt: new Date(T - (10 + i) * MINUTE),
      trackedUserId: user.id,
    })),
  );
  await db.insertInto("markers").values(
    Array.from({ length: TIMELINE_LIMITS.periods }, (_, i) => ({
      session_id: rows[0].id,
      session_created_at: rows[0].created_at,
      ts: rows[0].started_at.getTime() + i,
      kind: "url",
      data: sql`${JSON.stringify({ url: null, pathname: `/q${i}` })}::text::jsonb`,
    })),
  ).execute();
  const timeline = await trackedUserTimeline(
    t.deps,
    viewerOf(project.organization_id),
    user.id,
    "24h",
    NOW,
  );
  assert.equal(timeline.truncated, false);
  assert.equal(timeline.totalSessions, TIMELINE_LIMITS.sessions);
  assert.equal(timeline.sessions.length, TIMELINE_LIMITS.sessions);
  assert.equal(timeline.sessions.at(-1)!.periods.length, TIMELINE_LIMITS.periods);
});
