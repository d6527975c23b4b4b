// A tracked user's activity aggregates over a window (spec §4 inclusion rule: startedAt <= to AND
// (endedAt >= from OR open)) in one round trip.
import { type Kysely, sql } from "kysely";
import type { Database } from "../../schema.ts";

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
 * Each session's url markers are read once, as two arrays in recording order (ts, then id), by
 * one index-only probe (0009); periods and each batch's page come from those arrays, so the cost
 * is two probes per session (markers, batches), not one more per batch.
 */
export async function activityAggregates(
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
        -- ts is sorted: the markers at or before the batch are the first n; null n (none, or no
        -- markers) and a null pathname fall back to the first marker's, as before
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
