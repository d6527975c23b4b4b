// A tracked user's sessions in a window (spec §4 inclusion rule: startedAt <= to AND (endedAt >=
// from OR open)), their url markers, and their events per time bucket and page.
import { type Kysely, sql } from "kysely";
import type { Database } from "../schema.ts";

export interface WindowSessionRow {
  id: string;
  external_id: string;
  url: string | null;
  started_at: Date;
  ended_at: Date | null;
  duration: number;
  event_count: number;
}

export interface UrlMarkerRow {
  session_id: string;
  ts: number;
  url: string | null;
  pathname: string | null;
}

export interface BucketPageRow {
  bucket: number;
  /** null when the session has no url marker at all. */
  pathname: string | null;
  count: number;
}

function inWindow(db: Kysely<Database>, trackedUserId: string, from: Date, to: Date) {
  return db.selectFrom("sessions")
    .where("sessions.tracked_user_id", "=", trackedUserId)
    .where("sessions.started_at", "<=", to)
    .where((eb) =>
      eb.or([eb("sessions.ended_at", ">=", from), eb("sessions.ended_at", "is", null)])
    );
}

/** The window's sessions, oldest first. */
export async function windowSessions(
  db: Kysely<Database>,
  trackedUserId: string,
  from: Date,
  to: Date,
): Promise<WindowSessionRow[]> {
  return await inWindow(db, trackedUserId, from, to)
    .select(["id", "external_id", "url", "started_at", "ended_at", "duration", "event_count"])
    .orderBy("started_at").orderBy("id").execute();
}

/** The url markers of the window's sessions, per session in recording order. */
export async function windowUrlMarkers(
  db: Kysely<Database>,
  trackedUserId: string,
  from: Date,
  to: Date,
): Promise<UrlMarkerRow[]> {
  return await inWindow(db, trackedUserId, from, to)
    .innerJoin("markers", "markers.session_id", "sessions.id")
    .where("markers.kind", "=", "url")
    .select([
      "markers.session_id",
      "markers.ts",
      sql<string | null>`markers.data ->> 'url'`.as("url"),
      sql<string | null>`markers.data ->> 'pathname'`.as("pathname"),
    ])
    .orderBy("markers.session_id").orderBy("markers.ts").orderBy("markers.id").execute();
}

/**
 * Event counts per bucket and page: each batch whose firstTimestamp is in [from, to] counts in the
 * bucket holding it, on the pathname of the latest url marker at or before it (or, for a batch
 * older than every marker of its session, the session's first one).
 */
export async function bucketPageCounts(
  db: Kysely<Database>,
  trackedUserId: string,
  window: { from: Date; to: Date; bucketMs: number; buckets: number },
): Promise<BucketPageRow[]> {
  const fromMs = window.from.getTime(), toMs = window.to.getTime();
  const sessions = inWindow(db, trackedUserId, window.from, window.to)
    .select(["sessions.id", "sessions.project_id", "sessions.external_id"]);
  const pathnameAt = (order: "before" | "first") =>
    sql<string | null>`(SELECT m.data ->> 'pathname' FROM markers m
      WHERE m.session_id = s.id AND m.kind = 'url'
      ${
      order === "before"
        ? sql`AND m.ts <= b.first_ts ORDER BY m.ts DESC, m.id DESC`
        : sql`ORDER BY m.ts, m.id`
    }
      LIMIT 1)`;
  const { rows } = await sql<BucketPageRow>`
    SELECT LEAST((b.first_ts - ${fromMs}::bigint) / ${window.bucketMs}::bigint,
        ${window.buckets - 1}::bigint)::integer AS bucket,
      COALESCE(${pathnameAt("before")}, ${pathnameAt("first")}) AS pathname,
      sum(b.event_count)::integer AS count
    FROM (${sessions}) s
    JOIN event_batches b ON b.project_id = s.project_id AND b.session_external_id = s.external_id
    WHERE b.first_ts >= ${fromMs}::bigint AND b.first_ts <= ${toMs}::bigint
    GROUP BY 1, 2
  `.execute(db);
  return rows;
}
