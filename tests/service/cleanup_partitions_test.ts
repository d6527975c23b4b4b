// The session sweep over day partitions (migration 0012): whole expired days are dropped, the rest
// of the expired sessions go row by row with their batches and markers, and nothing younger goes.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { runCleanup } from "../../core/service/cleanup.ts";
import { addDayPartitions } from "../../db/queries/service/partitions.ts";
import type { Database } from "../../db/schema.ts";
import type { Kysely } from "kysely";
import { createTestApp } from "../helpers/app.ts";
import { insertMembership, insertProject, insertUser } from "../helpers/factories.ts";
import { insertBatch, insertMarker, insertSession } from "../helpers/sessions_factories.ts";

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
