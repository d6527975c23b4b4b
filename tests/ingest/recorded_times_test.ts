// Times at ingest (core/ingest/recorded_time.ts): one past JavaScript's Date range stored as a
// session's start once made every view of the organization answer 500, and one far ahead pinned
// its session to the top of the list. Each is a 400 naming the field, and nothing is stored; a
// time already stored that no Date holds is shown as missing, never a 500.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp } from "@/tests/helpers/app.ts";
import { createPagesApp } from "@/tests/helpers/pages.ts";
import { call } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { ingestRowCounts, METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { sharesWorld } from "@/tests/helpers/shares_world.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";
import * as boundedSessionTimes from "@/db/migrations/0030_bounded_session_times.ts";

const DAY_MS = 86_400_000;
const PAST_DATE_RANGE = 8.64e15 + 1;

async function refused(body: (now: number) => unknown, field: string) {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const before = await ingestRowCounts(t.db.kysely);
  const res = await postIngest(t.app, body(Date.now()), { key: project.key });
  assert.equal(res.status, 400);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const json = await res.json();
  assert.equal(json.kind, "validation");
  assert.ok(
    json.issues.some((i: { path: string }) => i.path === field),
    JSON.stringify(json.issues),
  );
  assert.deepEqual(await ingestRowCounts(t.db.kysely), before);
}

const batch = (now: number, patch: (events: ReturnType<typeof recordedEvents>) => void) => {
  const events = recordedEvents(3, now - 60_000);
  patch(events);
  return { sessionId: crypto.randomUUID(), events, metadata: METADATA };
};

Deno.test("recorded times: an event past JavaScript's Date range is a 400 naming it, nothing stored", async () => {
  await refused((now) => batch(now, (e) => e[2].timestamp = PAST_DATE_RANGE), "events.2.timestamp");
});

Deno.test("recorded times: an event two days ahead of the server's clock is a 400 (it would pin its session to the top)", async () => {
  await refused(
    (now) => batch(now, (e) => e[0].timestamp = now + 2 * DAY_MS),
    "events.0.timestamp",
  );
});

Deno.test("recorded times: an event 31 days old is a 400", async () => {
  await refused(
    (now) => batch(now, (e) => e[1].timestamp = now - 31 * DAY_MS),
    "events.1.timestamp",
  );
});

Deno.test("recorded times: a trigger's time and a page's start are bounded too", async () => {
  await refused((now) => ({
    ...batch(now, () => {}),
    metadata: { ...METADATA, recordingReason: "error", triggeredAt: PAST_DATE_RANGE },
  }), "metadata.triggeredAt");
  await refused((now) => ({
    ...batch(now, () => {}),
    sliceMarkers: [{
      index: 0,
      reason: "load",
      startedAt: -1,
      url: "https://shop.test/",
      pathname: "/",
    }],
  }), "sliceMarkers.0.startedAt");
});

Deno.test("recorded times: events from 29 days ago to 23 hours ahead are stored", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const now = Date.now();
  const events = recordedEvents(3, now - 29 * DAY_MS);
  events[2].timestamp = now + 23 * 3_600_000;
  const res = await postIngest(t.app, {
    sessionId: crypto.randomUUID(),
    events,
    metadata: METADATA,
  }, {
    key: project.key,
  });
  assert.equal(res.status, 204);
});

Deno.test("recorded times: a session stored with times no Date holds still lists, opens, replays and exports", async () => {
  await using t = await createPagesApp();
  const w = await sharesWorld(t);
  // What ingest stored before times were bounded: year 275760 and beyond.
  await sql`UPDATE sessions SET started_at = to_timestamp(${PAST_DATE_RANGE / 1000}),
    ended_at = to_timestamp(${PAST_DATE_RANGE / 1000 + 60}) WHERE id = ${w.sessionId}`
    .execute(t.db.kysely);
  const { tracked_user_id: userId } = await t.db.kysely.selectFrom("sessions")
    .select("tracked_user_id").where("id", "=", w.sessionId).executeTakeFirstOrThrow();
  for (
    const path of [
      "/api/sessions",
      `/api/sessions/${w.sessionId}`,
      `/api/sessions/${w.sessionId}/export?format=json`,
      `/api/sessions/${w.sessionId}/export?format=html`,
      "/api/tracked-users",
      `/api/tracked-users/${userId}`,
      `/api/tracked-users/${userId}/timeline`,
      `/api/tracked-users/${userId}/sessions`,
      `/api/tracked-users/${userId}/activity`,
      "/sessions",
      `/replays/${w.sessionId}`,
      "/users",
      `/users/${userId}`,
    ]
  ) {
    const res = await call(t.app, "GET", path, { cookie: w.owner.cookie });
    assert.equal(res.status, 200, `${path}: ${t.errors.map(String)}`);
    await res.body?.cancel();
  }
  const api = (path: string) => call(t.app, "GET", path, { cookie: w.owner.cookie });
  const detail = await (await api(`/api/sessions/${w.sessionId}`)).json();
  assert.equal(detail.endedAt, null, "an end no Date holds is shown as missing");
  const { data } = await (await api("/api/sessions")).json();
  assert.ok(data.some((s: { id: string }) => s.id === w.sessionId), "the session is listed");
});

Deno.test("recorded times: migration 0030 puts back a start and an end stored ahead of time", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const ahead = (days: number) => new Date(Date.now() + days * DAY_MS);
  const now = Date.now();
  const bad = await insertSession(t.db.kysely, project, {
    startedAt: ahead(2),
    durationMs: 60_000,
  });
  const good = await insertSession(t.db.kysely, project, {
    startedAt: ahead(0.5),
    durationMs: 60_000,
  });
  const huge = await insertSession(t.db.kysely, project, {
    startedAt: new Date(now),
    durationMs: 0,
  });
  await sql`UPDATE sessions SET ended_at = to_timestamp(${PAST_DATE_RANGE / 1000})
    WHERE id = ${huge.id}`.execute(t.db.kysely);

  await boundedSessionTimes.up(t.db.kysely);

  const row = (id: string) =>
    t.db.kysely.selectFrom("sessions").select(["started_at", "ended_at", "created_at"])
      .where("id", "=", id).executeTakeFirstOrThrow();
  const fixed = await row(bad.id);
  assert.equal(fixed.started_at.getTime(), fixed.created_at.getTime());
  assert.ok(fixed.ended_at!.getTime() <= Date.now() && fixed.ended_at! >= fixed.started_at);
  const kept = await row(good.id);
  assert.equal(kept.started_at.getTime(), good.started_at.getTime(), "half a day ahead is kept");
  const ended = await row(huge.id);
  assert.ok(ended.ended_at!.getTime() >= now && ended.ended_at!.getTime() <= Date.now());
});
