// Activity reads the per-session summary ingest keeps on the session row (migration 0010). On
// random ingest traffic (late metadata, service:url markers with and without a pathname, equal
// timestamps, retried batches, empty batches, identify and relink) it must answer exactly what the
// previous read computed from the markers and batches themselves, and ingest's summary must equal
// session_activity_rebuild()'s (the backfill's) recomputation from the rows.
import assert from "node:assert/strict";
import fc from "fast-check";
import { type Kysely, sql } from "kysely";
import {
  activityAggregates,
  type ActivityRow,
  type ActivityWindow,
  inWindow,
} from "@/db/queries/tracked_users/activity.ts";
import type { Database } from "@/db/schema.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { customEvent, METADATA, postIngest, type TestEvent } from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);
const PATHS = ["/", "/a", "/b"];

/** The previous read (before 0010): two probes per session, markers and batches. */
async function reference(
  db: Kysely<Database>,
  trackedUserId: string,
  w: ActivityWindow,
): Promise<ActivityRow> {
  const fromMs = w.from.getTime(), toMs = w.to.getTime();
  const { rows } = await sql<ActivityRow>`
    WITH s AS MATERIALIZED (
      SELECT s.id, s.project_id, s.external_id, s.started_at, s.ended_at, s.duration,
        s.event_count, mk.ts, mk.pathnames,
        COALESCE((extract(epoch FROM s.ended_at) * 1000)::bigint, ${toMs}::bigint) AS end_ms
      FROM sessions s
      CROSS JOIN LATERAL (
        SELECT array_agg(m.ts ORDER BY m.ts, m.id) AS ts,
          array_agg(m.data ->> 'pathname' ORDER BY m.ts, m.id) AS pathnames
        FROM markers m WHERE m.session_id = s.id AND m.kind = 'url'
      ) mk
      WHERE ${inWindow(trackedUserId, w.from, w.to)}
    ),
    pages AS (
      SELECT p.pathname,
        sum(GREATEST(COALESCE(s.ts[p.i + 1], s.end_ms) - s.ts[p.i], 0))::bigint AS duration,
        count(*)::integer AS visits
      FROM s, unnest(s.pathnames) WITH ORDINALITY AS p(pathname, i)
      WHERE p.pathname IS NOT NULL GROUP BY p.pathname
    ),
    counts AS (
      SELECT LEAST((b.first_ts - ${fromMs}::bigint) / ${w.bucketMs}::bigint,
          ${w.buckets - 1}::bigint)::integer AS bucket,
        COALESCE(
          s.pathnames[(SELECT count(*) FROM unnest(s.ts) t WHERE t <= b.first_ts)::integer],
          s.pathnames[1]
        ) AS pathname,
        sum(b.event_count)::integer AS events
      FROM s
      JOIN event_batches b ON b.project_id = s.project_id AND b.session_external_id = s.external_id
      WHERE b.first_ts >= ${fromMs}::bigint AND b.first_ts <= ${toMs}::bigint
      GROUP BY 1, 2
    )
    SELECT
      (SELECT count(*) FROM s)::integer AS session_count,
      (SELECT COALESCE(sum(duration), 0) FROM s)::bigint AS total_active_time,
      (SELECT COALESCE(sum(event_count), 0) FROM s)::bigint AS total_events,
      (SELECT min(started_at) FROM s) AS first_event_at,
      (SELECT max(COALESCE(ended_at, started_at)) FROM s) AS last_event_at,
      (SELECT COALESCE(jsonb_agg(jsonb_build_array(pathname, duration, visits)), '[]')
       FROM pages) AS pages,
      (SELECT COALESCE(jsonb_agg(jsonb_build_array(bucket, pathname, events)), '[]')
       FROM counts) AS counts
  `.execute(db);
  return rows[0];
}

/** The row with its lists in one order (both reads group in whatever order the plan gives). */
const canonical = (row: ActivityRow) => ({
  ...row,
  pages: [...row.pages].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  counts: [...row.counts].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
});

// One request: events at offsets (seconds, so equal stamps happen) with some service:url markers.
const request = fc.record({
  session: fc.nat(2),
  // mostly later batches without metadata; identify on some, relinking to the other user
  metadataPath: fc.constantFrom(null, null, ...PATHS),
  identify: fc.constantFrom(null, null, null, "u1", "u2"),
  retry: fc.boolean(),
  events: fc.array(
    fc.record({
      at: fc.nat(40),
      url: fc.option(fc.constantFrom(...PATHS, null), { freq: 3, nil: undefined }),
    }),
    { maxLength: 4 },
  ),
});

function eventsOf(events: { at: number; url?: string | null }[]): TestEvent[] {
  return events.map(({ at, url }) => {
    const timestamp = T0 + at * 1000;
    if (url === undefined) return { type: 3, data: { source: 2, at }, timestamp };
    // a service:url marker without a pathname counts as a page of its own: null
    return customEvent("service:url", url === null ? { url: "x" } : { pathname: url }, timestamp);
  });
}

Deno.test("activity summary: equals the markers-and-batches read on random ingest traffic", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  await fc.assert(
    fc.asyncProperty(
      fc.array(request, { minLength: 1, maxLength: 10 }),
      fc.nat(50),
      fc.constantFrom(
        { bucketMs: 5_000, buckets: 6 },
        { bucketMs: 10_000, buckets: 4 },
        { bucketMs: 60_000, buckets: 1 },
      ),
      async (requests, fromSecond, grid) => {
        const project = await insertProject(db);
        const sessions = [0, 1, 2].map(() => crypto.randomUUID());
        const sent: TestEvent[][] = [];
        for (const r of requests) {
          // a retry re-sends an earlier batch as it was: stored once
          const events = r.retry && sent.length ? sent[sent.length - 1] : eventsOf(r.events);
          sent.push(events);
          const metadata = r.metadataPath === null && r.identify === null ? undefined : {
            ...METADATA,
            url: `https://shop.test${r.metadataPath ?? "/"}`,
            ...(r.identify ? { userIdentity: { userId: r.identify, traits: {} } } : {}),
          };
          const res = await postIngest(t.app, {
            sessionId: sessions[r.session],
            events,
            ...(metadata ? { metadata } : {}),
          }, { key: project.key });
          assert.equal(res.status, 204);
        }
        const summaries = () =>
          db.selectFrom("sessions").select([
            "id",
            "url_ts",
            "url_pathnames",
            "batch_ts",
            "batch_events",
          ])
            .where("project_id", "=", project.id).orderBy("id").execute();
        const kept = await summaries();
        await sql`SELECT session_activity_rebuild(${kept.map((s) => s.id)}::text[])`.execute(db);
        assert.deepEqual(await summaries(), kept, "ingest's summary equals the rows' rebuild");
        const users = await db.selectFrom("tracked_users").select("id")
          .where("project_id", "=", project.id).execute();
        const from = new Date(T0 + fromSecond * 1000 - 10_000);
        const w = { from, to: new Date(from.getTime() + grid.bucketMs * grid.buckets), ...grid };
        for (const { id } of users) {
          assert.deepEqual(
            canonical(await activityAggregates(db, id, w)),
            canonical(await reference(db, id, w)),
          );
        }
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("activity summary: session_activity_rebuild restores a summary from the rows", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  const REBUILT = crypto.randomUUID();
  const res = await postIngest(t.app, {
    sessionId: REBUILT,
    events: [...eventsOf([{ at: 3 }, { at: 1, url: "/a" }]), ...eventsOf([{ at: 1, url: null }])],
    metadata: { ...METADATA, url: "https://shop.test/b" },
  }, { key: project.key });
  assert.equal(res.status, 204);
  // as JSON: postgres.js reads a NULL element of text[] as the string "NULL"
  const summary = async () =>
    (await sql`SELECT to_jsonb(url_ts) AS url_ts, to_jsonb(url_pathnames) AS url_pathnames,
        to_jsonb(batch_ts) AS batch_ts, to_jsonb(batch_events) AS batch_events
      FROM sessions WHERE external_id = ${REBUILT}`.execute(db)).rows[0];
  const kept = await summary();
  assert.deepEqual(kept, {
    url_ts: [T0 + 1000, T0 + 1000, T0 + 1000],
    url_pathnames: ["/a", null, "/b"], // equal stamps: in insert order, the metadata's last
    batch_ts: [T0 + 1000],
    batch_events: [3],
  });
  await db.updateTable("sessions").set({
    url_ts: [],
    url_pathnames: [],
    batch_ts: [],
    batch_events: [],
  }).execute();
  const { rows } = await sql<{ n: number }>`SELECT session_activity_rebuild(NULL) AS n`.execute(db);
  assert.equal(rows[0].n, 1);
  assert.deepEqual(await summary(), kept);
});
