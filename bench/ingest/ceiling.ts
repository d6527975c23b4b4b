// The ceiling: the rows one ingest request writes (session upsert, batch, markers), computed ahead
// of time (events already gzipped) and written by a bare postgres.js loop: no HTTP, no parsing.
import postgres from "postgres";
import { createId } from "@paralleldrive/cuid2";
import { gzip } from "@/core/gzip.ts";
import { extractMarkers, pathnameOf } from "@/core/ingest/markers.ts";
import { drive, type Limits } from "@/bench/drive.ts";
import type { RunResult } from "@/bench/stats.ts";
import { metadataFor, type Workload } from "@/bench/workload.ts";

export interface CeilingRow {
  firstTs: number;
  lastTs: number;
  eventCount: number;
  digest: Uint8Array;
  data: Uint8Array;
  markersJson: string;
  metadata: ReturnType<typeof metadataFor> | null;
}

interface CeilingSession {
  externalId: string;
  rows: CeilingRow[];
}

const encoder = new TextEncoder();

/** What the server would store for each batch of each recording (same bytes, same markers). */
export async function ceilingRows(workload: Workload): Promise<CeilingRow[][]> {
  return await Promise.all(workload.sessions.map((s) =>
    Promise.all(s.batches.map(async (b) => {
      const json = encoder.encode(JSON.stringify(b.events));
      const metadata = b.withMetadata ? metadataFor(s.recording) : null;
      const timestamps = b.events.map((e) => e.timestamp);
      const firstTs = Math.min(...timestamps);
      const markers: { ts: number; kind: string; data: unknown }[] = extractMarkers(b.events);
      // the session's first batch also records its landing URL as a marker
      if (metadata) {
        markers.push({
          ts: firstTs,
          kind: "url",
          data: { url: metadata.url, pathname: pathnameOf(metadata.url) },
        });
      }
      return {
        firstTs,
        lastTs: Math.max(...timestamps),
        eventCount: b.events.length,
        digest: new Uint8Array(await crypto.subtle.digest("SHA-256", json)),
        data: gzip(json),
        markersJson: JSON.stringify(markers),
        metadata,
      };
    }))
  ));
}

export async function runCeiling(
  databaseUrl: string,
  project: { id: string; organizationId: string },
  rows: CeilingRow[][],
  sessionCount: number,
  limits: Limits,
): Promise<RunResult> {
  const sql = postgres(databaseUrl, { max: limits.concurrency, onnotice: () => {} });
  const sessions: CeilingSession[] = Array.from({ length: sessionCount }, (_, i) => ({
    externalId: crypto.randomUUID(),
    rows: rows[i % rows.length],
  }));
  // Open the connections before the clock starts, as the server's pool already is.
  await Promise.all(Array.from({ length: limits.concurrency }, () => sql`SELECT 1`));
  try {
    return await drive({
      sessions,
      requestCount: (s) => s.rows.length,
      send: async (s, i) => {
        try {
          await writeCeilingRow(sql, project, s.externalId, s.rows[i]);
          return { ok: true, events: s.rows[i].eventCount, bytes: s.rows[i].data.length };
        } catch (error) {
          return { ok: false, events: 0, bytes: 0, failure: String(error) };
        }
      },
    }, { ...limits, serverPid: null });
  } finally {
    await sql.end();
  }
}

/** One request's rows in one statement (exported for sql_cost.ts). */
export async function writeCeilingRow(
  sql: postgres.Sql,
  project: { id: string; organizationId: string },
  externalId: string,
  row: CeilingRow,
): Promise<void> {
  const m = row.metadata;
  await sql`
    WITH batch AS (
      INSERT INTO event_batches (project_id, session_external_id, session_created_at, first_ts,
        last_ts, event_count, digest, data)
      VALUES (${project.id}, ${externalId},
        COALESCE((SELECT created_at FROM sessions
          WHERE project_id = ${project.id} AND external_id = ${externalId}), now()),
        ${row.firstTs}::bigint, ${row.lastTs}::bigint, ${row.eventCount}::integer,
        ${row.digest}, ${row.data})
      ON CONFLICT (project_id, session_external_id, digest, session_created_at) DO NOTHING
    ),
    session AS (
      INSERT INTO sessions
        (id, project_id, organization_id, external_id, url, referrer, user_agent, screen_width,
         screen_height, language, started_at, ended_at, event_count)
      VALUES (${createId()}, ${project.id}, ${project.organizationId}, ${externalId},
        ${m?.url ?? null}::text, ${m?.referrer ?? null}::text, ${m?.userAgent ?? null}::text,
        ${m?.screenWidth ?? null}::integer, ${m?.screenHeight ?? null}::integer,
        ${m?.language ?? null}::text, to_timestamp(${row.firstTs}::float8 / 1000),
        to_timestamp(${row.lastTs}::float8 / 1000), ${row.eventCount}::integer)
      ON CONFLICT (project_id, external_id) DO UPDATE SET
        started_at = LEAST(sessions.started_at, EXCLUDED.started_at),
        ended_at = GREATEST(sessions.ended_at, EXCLUDED.ended_at),
        event_count = sessions.event_count + EXCLUDED.event_count
      RETURNING id, created_at
    )
    INSERT INTO markers (session_id, session_created_at, ts, kind, data)
    SELECT session.id, session.created_at, m.ts, m.kind, m.data
    FROM session, jsonb_to_recordset(${row.markersJson}::text::jsonb)
      AS m(ts bigint, kind text, data jsonb)
  `;
}
