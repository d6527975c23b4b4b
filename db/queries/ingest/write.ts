// The ingest write: one atomic statement that finds the project by key, upserts the tracked user
// and the session, stores the batch once (by its page's sequence numbers, else by digest) and
// inserts its markers, atomically.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { markersInsert, markOpeningUrl } from "./write_markers.ts";
import { sequencesClaim } from "./write_sequences.ts";
import { sessionSummary } from "./write_summary.ts";

export interface IngestRow {
  projectKey: string;
  newSessionId: string;
  externalId: string;
  metadata: {
    url: string;
    referrer: string;
    userAgent: string;
    screenWidth: number;
    screenHeight: number;
    language: string;
    pathname: string;
    /** Parsed from userAgent by core (migration 0014). */
    browser: string | null;
    os: string | null;
    device: string | null;
    /** Why the SDK records it (migration 0025); triggeredAt only with a trigger's reason. */
    recordingReason?: string;
    triggeredAt?: number;
  } | null;
  identity: { newTrackedUserId: string; userId: string; traitsJson: string } | null;
  /** Absent for a batch without events: the session is touched, nothing is stored. */
  batch: {
    firstTs: number;
    lastTs: number;
    /** When its first full snapshot led by a Meta was taken, if it holds one (migration 0015). */
    snapshotTs?: number | null;
    eventCount: number;
    digest: Uint8Array;
    data: Uint8Array;
    sliceMarkersJson: string | null;
    /** JSON array of { ts, kind, data } extracted from `service:*` custom events. */
    markersJson: string;
    /** The batch's signal markers by kind (migration 0014); null when it has none. */
    signals: { errors: number; rageClicks: number; deadClicks: number } | null;
    /** Failing requests, the slowest request's ms, web vitals' `name:rating` (migration 0028). */
    network?: { errors: number; maxRequestMs: number; vitals: string[] } | null;
    /** Waits for the offloader (a store is configured, migration 0016). */
    staged?: boolean;
    /**
     * The SDK's page and the sequence numbers the batch stands for (an int8multirange's text):
     * stored only if none of them is stored yet (migration 0031).
     */
    range?: { pageId: string; claim: string } | null;
  } | null;
}

export interface IngestResult {
  projectId: string;
  sessionId: string;
  created: boolean;
  /** false when the batch was a retry of one already stored (or had no events). */
  stored: boolean;
  /** Some of the batch's sequence numbers were stored already: nothing of it was (0031). */
  overlap: boolean;
  trackedUserId: string | null;
  previousTrackedUserId: string | null;
}

/**
 * Writes one ingest request; null when no project has the key, or its session was erased (a
 * tombstone, migration 0035: nothing is written). The statement holds only the steps
 * the request needs: most requests (a later batch of an anonymous session without `service:*`
 * events) skip the previous-row lock, the tracked-user upsert and the markers insert, each of which
 * costs PostgreSQL executor setup and, for the upsert, a statement trigger even when it writes no
 * row. Each shape is a prepared statement of its own.
 */
export async function writeIngest(
  db: Kysely<Database>,
  row: IngestRow,
): Promise<IngestResult | null> {
  const m = row.metadata;
  const b = row.batch;
  const id = row.identity;
  // The identified upsert needs the lock order and the previous tracked user; metadata arriving
  // after the session was opened without it needs the previous url.
  const readPrevious = id !== null || m !== null;
  const none = sql``;

  // Locks the session row before the tracked user's: the rollup trigger on sessions (0004) locks
  // the tracked user after the session, so every ingest takes the two in that order.
  const previous = readPrevious
    ? sql`previous AS (
      SELECT sessions.tracked_user_id, sessions.url FROM sessions, project
      WHERE sessions.project_id = project.id AND sessions.external_id = ${row.externalId}
      FOR UPDATE OF sessions
    ),`
    : none;
  // The batch's partition is its session's created_at (migration 0012), read before the upsert:
  // now() for a new session, which the upsert gives it. Another request that creates (or deletes)
  // the session after this statement's snapshot makes them differ: the statement rolls back.
  const placed = b
    ? sql`placed AS (
      SELECT COALESCE((SELECT sessions.created_at FROM sessions
        WHERE sessions.project_id = project.id AND sessions.external_id = ${row.externalId}),
        now()) AS created_at
      FROM project
    ),`
    : none;
  // A numbered batch is stored only if it claims its sequence numbers (./write_sequences.ts).
  const range = b?.range ?? null;
  const claim = sequencesClaim(row);
  const misplaced = b
    ? sql`, CASE WHEN (SELECT created_at FROM placed) <> session.created_at
        THEN ingest_retry('the session changed under the batch') END AS misplaced`
    : none;
  // read (and locked) before the upserts change the row, which a later read would miss
  const afterPrevious = readPrevious ? sql`WHERE (SELECT count(*) FROM previous) >= 0` : none;
  const identified = id
    ? sql`identified AS (
      INSERT INTO tracked_users (id, project_id, organization_id, external_id, traits)
      SELECT ${id.newTrackedUserId}::text, project.id, project.organization_id,
        ${id.userId}::text, ${id.traitsJson}::text::jsonb
      FROM project ${afterPrevious}
      ON CONFLICT (project_id, external_id) DO UPDATE
        SET traits = tracked_users.traits || EXCLUDED.traits, updated_at = now()
      RETURNING id
    ),`
    : none;
  const trackedUserId = id ? sql`(SELECT id FROM identified)` : sql`NULL::text`;
  const linkTrackedUser = id
    ? sql`tracked_user_id = COALESCE((SELECT id FROM identified), sessions.tracked_user_id),`
    : none;
  const startedAt = sql`COALESCE(to_timestamp(${b?.firstTs ?? null}::float8 / 1000), now())`;
  // Whether this request stored its batch, read in the upsert's SET from the row it proposed
  // (the batch CTE has at most one row) rather than by a subplan over the CTE per column.
  const stored = b ? sql`cardinality(EXCLUDED.batch_ts) > 0` : sql`false`;
  const newStarted = sql`CASE WHEN ${stored}
    THEN LEAST(sessions.started_at, EXCLUDED.started_at) ELSE sessions.started_at END`;
  const { summaryColumns, summaryValues, summaryFrom, summaryUpdate } = sessionSummary(
    row,
    startedAt,
    newStarted,
  );
  const marked = markersInsert(row);
  // A session is sampled or triggered once: a trigger named later (a batch of the triggering page
  // that arrives after one that opened the session without metadata) fills it in, never changes it.
  const reasonUpdate = m?.triggeredAt !== undefined
    ? sql`recording_reason = CASE WHEN sessions.triggered_at IS NULL
          AND sessions.recording_reason = 'sampled' AND sessions.url IS NULL
          THEN EXCLUDED.recording_reason ELSE sessions.recording_reason END,
        triggered_at = CASE WHEN sessions.triggered_at IS NULL
          AND sessions.recording_reason = 'sampled' AND sessions.url IS NULL
          THEN EXCLUDED.triggered_at ELSE sessions.triggered_at END,`
    : none;

  const statement = sql<IngestResult & { sawSession: boolean; misplaced?: null }>`
    WITH project AS (
      SELECT id, organization_id FROM projects WHERE key = ${row.projectKey}
        AND NOT EXISTS (SELECT 1 FROM erased_sessions e
          WHERE e.project_id = projects.id AND e.external_id = ${row.externalId})
    ),
    ${previous}
    ${identified}
    ${placed}
    ${claim}
    batch AS (
      INSERT INTO event_batches
        (project_id, session_external_id, session_created_at, first_ts, last_ts, snapshot_ts,
         event_count, digest, data, slice_markers, staged)
      SELECT project.id, ${row.externalId}, ${b ? sql`placed.created_at` : sql`now()`},
        ${b?.firstTs ?? null}::bigint, ${b?.lastTs ?? null}::bigint,
        ${b?.snapshotTs ?? null}::bigint, ${b?.eventCount ?? 0}::integer,
        ${b?.digest ?? null}::bytea, ${b?.data ?? null}::bytea,
        ${b?.sliceMarkersJson ?? null}::text::jsonb, ${b?.staged ? true : null}::boolean
      FROM project ${b ? sql`, placed` : none} WHERE ${b !== null}::boolean
        ${range ? sql`AND EXISTS (SELECT 1 FROM claim)` : none}
      ON CONFLICT (project_id, session_external_id, digest, session_created_at) DO NOTHING
      RETURNING id
    ),
    session AS (
      INSERT INTO sessions
        (id, project_id, organization_id, external_id, url, referrer, user_agent, screen_width,
         screen_height, language, started_at, ended_at, event_count, tracked_user_id,
         recording_reason, triggered_at ${summaryColumns})
      SELECT ${row.newSessionId}, project.id, project.organization_id, ${row.externalId},
        ${m?.url ?? null}::text, ${m?.referrer ?? null}::text, ${m?.userAgent ?? null}::text,
        ${m?.screenWidth ?? null}::integer, ${m?.screenHeight ?? null}::integer,
        ${m?.language ?? null}::text,
        ${startedAt}, to_timestamp(${b?.lastTs ?? null}::float8 / 1000),
        ${b?.eventCount ?? 0}::integer, ${trackedUserId},
        ${m?.recordingReason ?? "sampled"}::text, ${m?.triggeredAt ?? null}::bigint
        ${summaryValues}
      FROM project ${summaryFrom} ${afterPrevious}
      ON CONFLICT (project_id, external_id) DO UPDATE SET
        -- a retried batch changes nothing; reordered ones only widen the session
        started_at = ${newStarted},
        ended_at = CASE WHEN ${stored}
          THEN GREATEST(sessions.ended_at, EXCLUDED.ended_at) ELSE sessions.ended_at END,
        event_count = sessions.event_count
          + CASE WHEN ${stored} THEN EXCLUDED.event_count ELSE 0 END,
        ${linkTrackedUser}
        ${summaryUpdate}
        ${reasonUpdate}
        url = COALESCE(sessions.url, EXCLUDED.url),
        referrer = COALESCE(sessions.referrer, EXCLUDED.referrer),
        user_agent = COALESCE(sessions.user_agent, EXCLUDED.user_agent),
        screen_width = COALESCE(sessions.screen_width, EXCLUDED.screen_width),
        screen_height = COALESCE(sessions.screen_height, EXCLUDED.screen_height),
        language = COALESCE(sessions.language, EXCLUDED.language)
      RETURNING id, started_at, created_at, (xmax = 0) AS created
    )
    ${marked}
    SELECT project.id AS "projectId", session.id AS "sessionId", session.created,
      EXISTS (SELECT 1 FROM batch) AS stored,
      ${range ? sql`NOT EXISTS (SELECT 1 FROM claim)` : sql`false`} AS overlap,
      ${trackedUserId} AS "trackedUserId",
      ${id ? sql`(SELECT tracked_user_id FROM previous)` : sql`NULL::text`}
        AS "previousTrackedUserId",
      ${readPrevious ? sql`EXISTS (SELECT 1 FROM previous)` : sql`true`} AS "sawSession"
      ${misplaced}
    FROM project, session
  `;
  const { rows } = await retried(() => statement.execute(db));
  const result = rows[0];
  if (!result) return null;
  const { sawSession, misplaced: _, ...ingested } = result;
  // The session appeared between this statement's snapshot and its upsert (another request of
  // the session created it): `previous` could not tell whether it came without a url.
  if (m && !result.created && !sawSession) {
    await markOpeningUrl(db, result.sessionId, m.url, m.pathname);
  }
  return ingested;
}

/** Runs the statement again (twice at most) when it rolled back through ingest_retry. */
async function retried<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1;; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (attempt === 3 || (error as { code?: unknown }).code !== "40001") throw error;
    }
  }
}

/** Records that a project's key was used; callers do not wait for it. */
export async function touchProject(db: Kysely<Database>, projectId: string): Promise<void> {
  await db.updateTable("projects").set({ last_used_at: sql`now()` as unknown as Date })
    .where("id", "=", projectId).execute();
}
