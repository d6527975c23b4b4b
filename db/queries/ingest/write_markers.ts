// The ingest write's markers step: the batch's `service:*` markers and the opening url marker,
// inserted with the session, and the url marker put back after a write that raced its creation.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import type { IngestRow } from "./write.ts";

/** The statement's `marked` CTE, or nothing when the request brings no marker. */
export function markersInsert(row: IngestRow) {
  const m = row.metadata;
  const b = row.batch;
  const hasMarkers = b !== null && b.markersJson !== "[]";
  const none = sql``;
  const eventMarkers = hasMarkers
    ? sql`SELECT session.id, session.created_at, event.ts, event.kind, event.data
      FROM session, jsonb_to_recordset(${b.markersJson}::text::jsonb)
        AS event(ts bigint, kind text, data jsonb)
      WHERE EXISTS (SELECT 1 FROM batch)`
    : none;
  // Also when an earlier batch without metadata opened the session (keepalive bodies of an
  // unloading page race each other): the first metadata then fills it in, marker included.
  const urlMarker = m
    ? sql`SELECT session.id, session.created_at,
        (extract(epoch FROM session.started_at) * 1000)::bigint, 'url',
        jsonb_build_object('url', ${m.url}::text, 'pathname', ${m.pathname}::text)
      FROM session
      WHERE session.created OR EXISTS (SELECT 1 FROM previous WHERE previous.url IS NULL)`
    : none;
  const marked = hasMarkers || m
    ? sql`, marked AS (
      INSERT INTO markers (session_id, session_created_at, ts, kind, data)
      ${eventMarkers} ${hasMarkers && m ? sql`UNION ALL` : none} ${urlMarker}
    )`
    : none;
  return marked;
}

/**
 * The url marker at the session's start for metadata that filled in the session's url, unless
 * one for that url is there: run after a write that raced the session's creation.
 */
export async function markOpeningUrl(
  db: Kysely<Database>,
  sessionId: string,
  url: string,
  pathname: string,
): Promise<void> {
  await sql`
    INSERT INTO markers (session_id, session_created_at, ts, kind, data)
    SELECT s.id, s.created_at, (extract(epoch FROM s.started_at) * 1000)::bigint, 'url',
      jsonb_build_object('url', ${url}::text, 'pathname', ${pathname}::text)
    FROM sessions s
    WHERE s.id = ${sessionId} AND s.url = ${url}
      AND NOT EXISTS (
        SELECT 1 FROM markers
        WHERE markers.session_id = s.id AND markers.kind = 'url' AND markers.data ->> 'url' = ${url}
      )
  `.execute(db);
}
