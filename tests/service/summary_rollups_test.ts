// Property test of the summary rollups (migration 0007): on random sessions and tracked users,
// changed by ingest, updates, relinks and every kind of delete, the sessions summary and the
// tracked-users summary read from the rollups equal the direct aggregation, for random `since`
// instants (hour-aligned, midnight, arbitrary), project filters and `now`s. Seeded: a failure
// prints its seed; SUMMARY_SEED=<n> replays it.
import assert from "node:assert/strict";
import { type Kysely, sql } from "kysely";
import { statusBounds } from "@/core/tracked_users/status.ts";
import type { SessionFilter } from "@/db/queries/sessions/list.ts";
import { summarizeSessions, summarizeSessionsDirect } from "@/db/queries/sessions/summary.ts";
import { summarizeTrackedUsers } from "@/db/queries/tracked_users/summary.ts";
import { compactRollups, rebuildRollups } from "@/db/queries/service/rollups.ts";
import type { Database } from "@/db/schema.ts";
import { createTestApp, type TestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { insertSessions, insertTrackedUser } from "@/tests/helpers/sessions_factories.ts";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** mulberry32: small, seedable, good enough to pick test data. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: T[]): T => items[int(items.length)];
  return { next, int, pick };
}
type Random = ReturnType<typeof random>;

/** An instant near `now`: on an hour, on a UTC midnight, near the 7/30-day edges, or anywhere. */
function instant(r: Random, now: number): number {
  const base = now - r.int(36 * DAY);
  switch (r.int(5)) {
    case 0:
      return Math.floor(base / HOUR) * HOUR;
    case 1:
      return Math.floor(base / DAY) * DAY;
    case 2:
      return now - r.pick([7, 30]) * DAY + r.pick([-1, 0, 1]) * r.int(HOUR);
    default:
      return base;
  }
}

type Db = Kysely<Database>;
type Project = { id: string; organization_id: string; key: string };

async function trackedUsersDirect(db: Db, organizationId: string, now: Date) {
  const b = statusBounds(now);
  const seen = sql`COALESCE(last_event_at, '-infinity'::timestamptz)`;
  const count = (where: ReturnType<typeof sql>) =>
    sql<number>`(SELECT count(*) FROM tracked_users
      WHERE organization_id = ${organizationId} AND ${where})::integer`;
  const { rows } = await sql<Record<string, number>>`SELECT
    ${count(sql`true`)} AS total,
    ${count(sql`${seen} >= ${b.online}`)} AS online_now,
    ${count(sql`${seen} >= ${b.day}`)} AS active_24h,
    ${count(sql`created_at >= ${b.week}`)} AS new_this_week`.execute(db);
  return rows[0];
}

async function assertSummariesMatch(t: TestApp, r: Random, projects: Project[], label: string) {
  const db = t.db.kysely;
  const organizations = [...new Set(projects.map((p) => p.organization_id))];
  for (let i = 0; i < 40; i++) {
    const now = Date.now() + r.pick([0, r.int(2 * DAY), -r.int(2 * DAY)]);
    const organizationId = r.pick(organizations);
    const ids = projects.map((p) => p.id);
    const filter: SessionFilter = {
      organizationId,
      projectIds: r.pick([null, null, [r.pick(ids)], ids.slice(0, 2), ["no-such-project"]]),
      since: r.pick([null, new Date(instant(r, now))]),
      search: null,
    };
    const todayStart = new Date(Math.floor(now / DAY) * DAY);
    assert.deepEqual(
      await summarizeSessions(db, filter, todayStart),
      await summarizeSessionsDirect(db, filter, todayStart),
      `${label}: sessions summary of ${JSON.stringify({ filter, todayStart })}`,
    );
    const at = new Date(r.pick([now, instant(r, now)]));
    assert.deepEqual(
      { ...await summarizeTrackedUsers(db, organizationId, statusBounds(at)) },
      await trackedUsersDirect(db, organizationId, at),
      `${label}: tracked-users summary of ${organizationId} at ${at.toISOString()}`,
    );
  }
}

async function seed(t: TestApp, r: Random, projects: Project[]) {
  const db = t.db.kysely;
  const now = Date.now();
  const users = [];
  for (let i = 0; i < 12; i++) {
    const project = r.pick(projects);
    const user = await insertTrackedUser(db, project, { externalId: `user-${i}` });
    await sql`UPDATE tracked_users SET created_at = ${new Date(instant(r, now))}
      WHERE id = ${user.id}`.execute(db);
    users.push({ ...user, project });
  }
  for (const project of projects) {
    const mine = users.filter((u) => u.project.id === project.id);
    await insertSessions(
      db,
      project,
      Array.from({ length: 40 }, () => ({
        createdAt: new Date(instant(r, now)),
        durationMs: r.pick([null, 0, r.int(HOUR), r.int(2 * DAY)]),
        trackedUserId: mine.length && r.next() < 0.6 ? r.pick(mine).id : null,
      })),
    );
  }
}

/** Real ingest requests: new sessions, later batches that widen them, identified users. */
async function ingest(t: TestApp, r: Random, projects: Project[]) {
  for (let i = 0; i < 8; i++) {
    const project = r.pick(projects);
    const sessionId = crypto.randomUUID();
    const start = Date.now() - r.int(3 * DAY);
    const userIdentity = r.next() < 0.5 ? { userId: `ingested-${r.int(5)}` } : undefined;
    for (let b = 0; b < 1 + r.int(3); b++) {
      const events = recordedEvents(3, start + b * r.int(6 * HOUR));
      const metadata = b === 0 ? { ...METADATA, userIdentity } : undefined;
      const res = await postIngest(t.app, { sessionId, events, metadata }, { key: project.key });
      assert.equal(res.status, 204);
    }
  }
}

async function change(t: TestApp, r: Random, projects: Project[]) {
  const db = t.db.kysely;
  const ids = async (table: "sessions" | "tracked_users") =>
    (await db.selectFrom(table).select("id").execute()).map((row) => row.id);
  const sessions = await ids("sessions");
  const someSessions = () => sessions.filter(() => r.next() < 0.1);
  // Sessions that grow (one and many at a time), are relinked, close or reopen.
  await sql`UPDATE sessions SET ended_at = COALESCE(ended_at, started_at) + ${
    r.int(DAY)
  } * interval '1 ms'
    WHERE id = ${r.pick(sessions)}`.execute(db);
  await sql`UPDATE sessions SET ended_at = started_at + ${r.int(DAY)} * interval '1 ms'
    WHERE id IN (${sql.join(someSessions())})`.execute(db);
  await sql`UPDATE sessions SET ended_at = NULL WHERE id IN (${sql.join(someSessions())})`
    .execute(db);
  const users = await ids("tracked_users");
  await sql`UPDATE sessions SET tracked_user_id = ${r.pick(users)}
    WHERE id IN (${sql.join(someSessions())})`.execute(db);
  // Deletes: one session, a chunk, a tracked user (sessions unlinked), a whole project.
  await db.deleteFrom("sessions").where("id", "=", r.pick(sessions)).execute();
  await db.deleteFrom("sessions").where("id", "in", someSessions()).execute();
  await db.deleteFrom("tracked_users").where("id", "=", r.pick(users)).execute();
  const gone = projects.splice(r.int(projects.length - 1) + 1, 1);
  await db.deleteFrom("projects").where("id", "in", gone.map((p) => p.id)).execute();
}

Deno.test("summary rollups: equal to the direct aggregation through ingest, updates, relinks and deletes", async () => {
  const seedValue = Number(Deno.env.get("SUMMARY_SEED") ?? Math.floor(Math.random() * 2 ** 31));
  const r = random(seedValue);
  await using t = await createTestApp();
  const db = t.db.kysely;
  try {
    const a = await insertProject(db, { name: "A1" });
    const projects: Project[] = [
      a,
      await insertProject(db, { organizationId: a.organization_id, name: "A2" }),
      await insertProject(db, { organizationId: a.organization_id, name: "A3" }),
      await insertProject(db, { name: "B1" }),
    ];
    await seed(t, r, projects);
    await assertSummariesMatch(t, r, projects, "seeded");
    await ingest(t, r, projects);
    await assertSummariesMatch(t, r, projects, "after ingest");
    await change(t, r, projects);
    await assertSummariesMatch(t, r, projects, "after updates and deletes");
    await compactRollups(db, new Date(Date.now() - HOUR));
    await assertSummariesMatch(t, r, projects, "after compaction");
    await ingest(t, r, projects);
    await change(t, r, projects);
    await assertSummariesMatch(t, r, projects, "after more changes on compacted rollups");
    await rebuildRollups(db);
    await assertSummariesMatch(t, r, projects, "rebuilt from scratch (the benchmark's seed)");
  } catch (error) {
    console.error(`summary rollups failed with SUMMARY_SEED=${seedValue}`);
    throw error;
  }
});
