// A tracked user's timeline sessions: the newest `limit` sessions in a window (started by its end,
// ended after its start or open) with how many the window holds, each with its first url markers,
// in one round trip.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { inWindow } from "./activity.ts";

/** A url marker as [ts, url, pathname]. */
export type UrlMarkerTuple = [number, string | null, string | null];

export interface TimelineSessionRow {
  id: string;
  external_id: string;
  url: string | null;
  started_at: Date;
  ended_at: Date | null;
  duration: number;
  /** The first `markerLimit` url markers in recording order (ts, then id). */
  markers: UrlMarkerTuple[];
  /** Sessions in the window, returned or not (the same on every row). */
  total: number;
}

/**
 * The newest sessions (by start) touching the window, returned oldest first. The limit is applied
 * before the markers are read, so the cost follows `limit`, not the user's history
 * (sessions_tracked_user_idx walks (tracked_user_id, started_at DESC, id)).
 */
export async function timelineSessions(
  db: Kysely<Database>,
  trackedUserId: string,
  w: { from: Date; to: Date },
  limits: { sessions: number; markers: number },
): Promise<TimelineSessionRow[]> {
  const { rows } = await sql<TimelineSessionRow>`
    SELECT s.id, s.external_id, s.url, s.started_at, s.ended_at, s.duration, s.total,
      COALESCE((SELECT jsonb_agg(jsonb_build_array(m.ts, m.data ->> 'url', m.data ->> 'pathname')
                  ORDER BY m.ts, m.id)
                FROM (SELECT ts, id, data FROM markers
                      WHERE session_id = s.id AND session_created_at = s.created_at
                        AND kind = 'url'
                      ORDER BY ts, id LIMIT ${limits.markers}) m), '[]') AS markers
    FROM (SELECT s.id, s.external_id, s.url, s.started_at, s.ended_at, s.duration, s.created_at,
            count(*) OVER ()::integer AS total
          FROM sessions s WHERE ${inWindow(trackedUserId, w.from, w.to)}
          ORDER BY s.started_at DESC, s.id LIMIT ${limits.sessions}) s
    ORDER BY s.started_at, s.id
  `.execute(db);
  return rows;
}
