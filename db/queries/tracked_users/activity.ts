// A tracked user's activity aggregates over a window (a session is in when startedAt <= to
// AND (endedAt >= from OR open)) in one round trip.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

export interface ActivityRow {
  session_count: number;
  total_active_time: number;
  total_events: number;
  first_event_at: Date | null;
  last_event_at: Date | null;
  /** [pathname, duration, visits] per pathname. */
  pages: [string, number, number][];
  /** [bucket, pathname (null: no url marker in the session), events]. */
  counts: [number, string | null, number][];
}

export interface ActivityWindow {
  from: Date;
  to: Date;
  bucketMs: number;
  buckets: number;
}

export const inWindow = (trackedUserId: string, from: Date, to: Date) =>
  sql`s.tracked_user_id = ${trackedUserId} AND s.started_at <= ${to}
    AND (s.ended_at >= ${from} OR s.ended_at IS NULL)`;

/**
 * Summary sums, page durations and visits over the timeline's periods (marker to next marker, the
 * last to the session end or `to` while open), and event counts per bucket and page: a batch
 * whose firstTimestamp is in [from, to] counts in the bucket holding it (`to` in the last), on
 * the pathname of the latest url marker at or before it (before every marker: the first one).
 *
 * Reads only the window's session rows: their url markers and batches are summarised on them
 * (migration 0010), so the cost is one index range over the user's sessions, not two probes each.
 */
export async function activityAggregates(
  db: Kysely<Database>,
  trackedUserId: string,
  w: ActivityWindow,
): Promise<ActivityRow> {
  const fromMs = w.from.getTime(), toMs = w.to.getTime();
  const { rows } = await sql<ActivityRow>`
    WITH s AS MATERIALIZED (
      SELECT s.started_at, s.ended_at, s.duration, s.event_count, s.url_ts AS ts,
        s.url_pathnames AS pathnames, s.batch_ts, s.batch_events,
        COALESCE((extract(epoch FROM s.ended_at) * 1000)::bigint, ${toMs}::bigint) AS end_ms
      FROM sessions s
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
        -- ts is sorted: width_bucket is the number of markers at or before the batch (a binary
        -- search); none, or no markers, and a null pathname fall back to the first marker's
        COALESCE(
          s.pathnames[width_bucket(b.first_ts, s.ts)],
          s.pathnames[1]
        ) AS pathname,
        sum(b.event_count)::integer AS events
      FROM s, unnest(s.batch_ts, s.batch_events) AS b(first_ts, event_count)
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
