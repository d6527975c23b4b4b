// The session sweep over day partitions (migration 0012): whole expired days are dropped, the rest
// of the expired sessions go row by row with their batches and markers, nothing younger goes, and
// their tracked users' aggregates are applied once at the end.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { runCleanup } from "@/core/service/cleanup.ts";
import { addDayPartitions } from "@/db/queries/service/partitions.ts";
import { applyPendingTrackedUsers, deleteOldSessions } from "@/db/queries/service/cleanup.ts";
import type { Database } from "@/db/schema.ts";
import type { Kysely } from "kysely";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertMembership, insertProject, insertUser } from "@/tests/helpers/factories.ts";
import {
  insertBatch,
  insertMarker,
  insertSession,
  insertTrackedUser,
} from "@/tests/helpers/sessions_factories.ts";

const DAY = 86_400_000;
const MIN = 60_000;

/** The partition each of the session's batches and markers sits in. */
async function homes(db: Kysely<Database>, session: { id: string; external_id: string }) {
  const { rows } = await sql<{ home: string }>`
    SELECT tableoid::regclass::text AS home FROM event_batches
    WHERE session_external_id = ${session.external_id}
    UNION ALL
    SELECT tableoid::regclass::text FROM markers WHERE session_id = ${session.id}`.execute(db);
  return rows.map((r) => r.home).sort();
}

async function partitions(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'event_batches'::regclass ORDER BY 1`.execute(db);
  return rows.map((r) => r.name);
}

const dayName = (at: number) =>
  `event_batches_d${new Date(at).toISOString().slice(0, 10).replaceAll("-", "")}`;

Deno.test("cleanup: expired days are dropped whole, the day at the cutoff goes row by row", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const now = Date.now();
  const cutoff = now - 7 * DAY;
  await addDayPartitions(db, new Date(now - 10 * DAY), new Date(now));
  const project = await insertProject(db);
  const recorded = async (createdAt: number) => {
    const session = await insertSession(db, project, { createdAt: new Date(createdAt) });
    await insertBatch(db, session, [{ timestamp: createdAt }]);
    await insertMarker(db, session.id, { ts: createdAt, kind: "custom", data: {} });
    return session;
  };
  const wholeDay = await recorded(now - 9 * DAY);
  const beforeCutoff = await recorded(cutoff - MIN);
  const afterCutoff = await recorded(cutoff + MIN);
  const noPartition = await recorded(now - 30 * DAY);
  const today = await recorded(now);

  assert.deepEqual(await homes(db, wholeDay), [dayName(now - 9 * DAY), markersOf(now - 9 * DAY)]);
  assert.deepEqual(await homes(db, noPartition), ["event_batches_default", "markers_default"]);
  assert.deepEqual(await homes(db, afterCutoff), [dayName(cutoff + MIN), markersOf(cutoff + MIN)]);

  const result = await runCleanup(t.deps, new Date(now));
  assert.equal(result.sessions, 3);
  const left = await db.selectFrom("sessions").select("id").orderBy("created_at").execute();
  assert.deepEqual(left.map((s) => s.id), [afterCutoff.id, today.id]);
  for (const gone of [wholeDay, beforeCutoff, noPartition]) {
    assert.deepEqual(await homes(db, gone), [], "batches and markers of a deleted session go");
  }
  assert.equal((await homes(db, afterCutoff)).length, 2);
  assert.equal((await homes(db, today)).length, 2);

  const names = await partitions(db);
  assert.ok(!names.includes(dayName(now - 9 * DAY)), "the whole expired day is dropped");
  assert.ok(!names.includes(dayName(now - 8 * DAY)));
  assert.ok(names.includes(dayName(cutoff + MIN)), "the day the cutoff falls in stays");
  for (let ahead = 0; ahead <= 3; ahead++) {
    assert.ok(names.includes(dayName(now + ahead * DAY)), `the partition ${ahead} days ahead`);
  }
});

Deno.test("cleanup: a day the default partition already holds rows of gets no partition", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const now = Date.now();
  const project = await insertProject(db);
  // a member keeps the organization (and so the session) through a run days on
  await insertMembership(db, project.organization_id, (await insertUser(db)).id, "OWNER");
  const session = await insertSession(db, project, { createdAt: new Date(now + 5 * DAY) });
  await insertBatch(db, session, [{ timestamp: now }]);
  // A run five days on must not fail on the day ingest already wrote to the default partition.
  await runCleanup(t.deps, new Date(now + 3 * DAY));
  const names = await partitions(db);
  assert.ok(!names.includes(dayName(now + 5 * DAY)));
  assert.ok(names.includes(dayName(now + 6 * DAY)), "the days after it are made");
  assert.deepEqual(await homes(db, session), ["event_batches_default"]);
});

const markersOf = (at: number) => dayName(at).replace("event_batches", "markers");

Deno.test("cleanup: a tracked user's aggregates count only the sessions left, updated once at the end", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const now = Date.now();
  const project = await insertProject(db);
  await insertMembership(db, project.organization_id, (await insertUser(db)).id, "OWNER");
  const user = await insertTrackedUser(db, project);
  const session = (ageMs: number, durationMs: number) =>
    insertSession(db, project, {
      createdAt: new Date(now - ageMs),
      durationMs,
      trackedUserId: user.id,
    });
  await session(9 * DAY, 60_000);
  await session(8 * DAY, 120_000);
  const kept = [await session(3 * DAY, 30_000), await session(DAY, 45_000)];

  // one session per chunk: the user's two expired sessions leave two pending deltas
  const result = await runCleanup(t.deps, new Date(now), { chunkRows: 1 });
  assert.equal(result.sessions, 2);
  const after = await db.selectFrom("tracked_users").selectAll().where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  assert.equal(after.session_count, 2);
  assert.equal(Number(after.active_time), 75_000);
  assert.equal(after.last_event_at?.getTime(), kept[1].ended_at?.getTime());
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::integer AS n FROM tracked_user_pending`.execute(db);
  assert.equal(rows[0].n, 0, "nothing is left pending");
});

Deno.test("cleanup: deltas a run left pending are applied by the next one", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  await insertMembership(db, project.organization_id, (await insertUser(db)).id, "OWNER");
  const user = await insertTrackedUser(db, project);
  const session = await insertSession(db, project, { durationMs: 10_000, trackedUserId: user.id });
  // as a run cut short after a chunk leaves it: the session gone, its user's delta pending
  await db.transaction().execute(async (tx) => {
    await sql`SELECT set_config('playhead.defer_tracked_users', 'on', true)`.execute(tx);
    await tx.deleteFrom("sessions").where("id", "=", session.id).execute();
  });
  const pending = await db.selectFrom("tracked_users").select("session_count")
    .where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.equal(pending.session_count, 1, "deferred: not yet applied");
  await runCleanup(t.deps, new Date());
  const after = await db.selectFrom("tracked_users").selectAll().where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  assert.deepEqual([after.session_count, Number(after.active_time), after.last_event_at], [
    0,
    0,
    null,
  ]);
});

Deno.test("cleanup: a chunk of the session sweep leaves its users' aggregates pending", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const user = await insertTrackedUser(db, project);
  await insertSession(db, project, {
    createdAt: new Date(Date.now() - 8 * DAY),
    durationMs: 20_000,
    trackedUserId: user.id,
  });
  // Now, with the project's default 7 days' retention (and no bound nearer than that).
  const now = new Date();
  const gone = await deleteOldSessions(db, now, now, 10);
  assert.equal(gone.deleted, 1);
  const { rows } = await sql<{ tracked_user_id: string; sessions: number; active_time: string }>`
    SELECT tracked_user_id, sessions, active_time::text FROM tracked_user_pending`.execute(db);
  assert.deepEqual(rows, [{ tracked_user_id: user.id, sessions: 1, active_time: "20000" }]);
  const untouched = await db.selectFrom("tracked_users").select("session_count")
    .where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.equal(untouched.session_count, 1);
  assert.deepEqual(await applyPendingTrackedUsers(db, "", 10), { applied: 1, last: user.id });
  const applied = await db.selectFrom("tracked_users").select("session_count")
    .where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.equal(applied.session_count, 0);
});

Deno.test("cleanup: a chunk starts at the last one's newest session, older ones wait for a pass from the start", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const now = new Date(); // the project keeps 7 days: the 8-10 days old go
  const oldest = await insertSession(db, project, { createdAt: new Date(Date.now() - 10 * DAY) });
  const middle = await insertSession(db, project, { createdAt: new Date(Date.now() - 9 * DAY) });
  const newest = await insertSession(db, project, { createdAt: new Date(Date.now() - 8 * DAY) });
  // microseconds the stored created_at has and a JavaScript Date would lose
  await sql`UPDATE sessions SET created_at = created_at + interval '123 microseconds'
            WHERE id = ${middle.id}`.execute(db);
  const { rows: [{ at }] } = await sql<{ at: string }>`
    SELECT created_at::text AS at FROM sessions WHERE id = ${middle.id}`.execute(db);
  const remaining = async () =>
    (await db.selectFrom("sessions").select("id").orderBy("created_at").execute()).map((r) => r.id);

  assert.deepEqual(await deleteOldSessions(db, now, now, 1, at), { deleted: 1, last: at });
  assert.deepEqual(await remaining(), [oldest.id, newest.id]);
  const next = await deleteOldSessions(db, now, now, 1, at);
  assert.equal(next.deleted, 1);
  assert.deepEqual(await remaining(), [oldest.id]);
  assert.deepEqual(await deleteOldSessions(db, now, now, 1, next.last), { deleted: 0, last: null });
  assert.equal((await deleteOldSessions(db, now, now, 1)).deleted, 1);
  assert.deepEqual(await remaining(), []);
});
