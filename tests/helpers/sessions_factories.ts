// Seeding for session and cleanup tests: sessions, tracked users, batches, markers and invites
// inserted directly in SQL with chosen timestamps (faster than ingest, and times are exact).
import { createId } from "@paralleldrive/cuid2";
import { type Kysely, sql } from "kysely";
import type { Database, InviteStatus } from "@/db/schema.ts";
import { gzipBytes } from "./ingest.ts";

type Db = Kysely<Database>;

/** A JSON value for a jsonb column: sent as text and cast, so no driver encodes it twice. */
// deno-lint-ignore no-explicit-any
const jsonb = (value: unknown): any => sql`${JSON.stringify(value)}::text::jsonb`;

export async function insertTrackedUser(
  db: Db,
  project: { id: string; organization_id: string },
  overrides: {
    externalId?: string;
    traits?: Record<string, unknown>;
    customName?: string | null;
    traitKey?: string | null;
  } = {},
) {
  return await db.insertInto("tracked_users").values({
    id: createId(),
    project_id: project.id,
    organization_id: project.organization_id,
    external_id: overrides.externalId ?? `user-${createId()}`,
    traits: jsonb(overrides.traits ?? {}),
    custom_name: overrides.customName ?? null,
    display_name_trait_key: overrides.traitKey ?? null,
  }).returningAll().executeTakeFirstOrThrow();
}

export interface SessionSeed {
  externalId?: string;
  createdAt?: Date;
  /** The first event's time; defaults to createdAt. */
  startedAt?: Date;
  /** ms; the session ends this long after it starts. null = open. */
  durationMs?: number | null;
  trackedUserId?: string | null;
  eventCount?: number;
  url?: string;
}

export async function insertSession(
  db: Db,
  project: { id: string; organization_id: string },
  seed: SessionSeed = {},
) {
  const createdAt = seed.createdAt ?? new Date();
  const startedAt = seed.startedAt ?? createdAt;
  const duration = seed.durationMs === undefined ? 60_000 : seed.durationMs;
  return await db.insertInto("sessions").values({
    id: createId(),
    project_id: project.id,
    organization_id: project.organization_id,
    external_id: seed.externalId ?? crypto.randomUUID(),
    url: seed.url ?? "https://shop.test/",
    referrer: "https://search.test/",
    user_agent: "Mozilla/5.0 (test)",
    screen_width: 1280,
    screen_height: 800,
    language: "en-GB",
    started_at: startedAt,
    ended_at: duration === null ? null : new Date(startedAt.getTime() + duration),
    event_count: seed.eventCount ?? 10,
    tracked_user_id: seed.trackedUserId ?? null,
    created_at: createdAt,
  }).returningAll().executeTakeFirstOrThrow();
}

/** Many sessions in one statement (for pagination and retention tests). */
export async function insertSessions(
  db: Db,
  project: { id: string; organization_id: string },
  seeds: SessionSeed[],
) {
  if (!seeds.length) return [];
  return await db.insertInto("sessions").values(seeds.map((seed) => {
    const createdAt = seed.createdAt ?? new Date();
    const startedAt = seed.startedAt ?? createdAt;
    const duration = seed.durationMs === undefined ? 60_000 : seed.durationMs;
    return {
      id: createId(),
      project_id: project.id,
      organization_id: project.organization_id,
      external_id: seed.externalId ?? crypto.randomUUID(),
      url: seed.url ?? "https://shop.test/",
      started_at: startedAt,
      ended_at: duration === null ? null : new Date(startedAt.getTime() + duration),
      event_count: seed.eventCount ?? 10,
      tracked_user_id: seed.trackedUserId ?? null,
      created_at: createdAt,
    };
  })).returningAll().execute();
}

/** A stored batch of `events` for the session, gzipped as ingest stores it. */
export async function insertBatch(
  db: Db,
  session: { project_id: string; external_id: string },
  events: { timestamp: number }[],
) {
  const data = await gzipBytes(new TextEncoder().encode(JSON.stringify(events)));
  const stamps = events.map((e) => e.timestamp);
  const batch = await db.insertInto("event_batches").values({
    project_id: session.project_id,
    session_external_id: session.external_id,
    session_created_at: sql<Date>`(SELECT created_at FROM sessions
      WHERE project_id = ${session.project_id} AND external_id = ${session.external_id})`,
    first_ts: Math.min(...stamps),
    last_ts: Math.max(...stamps),
    event_count: events.length,
    digest: crypto.getRandomValues(new Uint8Array(32)),
    data,
  }).returningAll().executeTakeFirstOrThrow();
  await sql`SELECT session_activity_rebuild(ARRAY(SELECT id FROM sessions
    WHERE project_id = ${session.project_id} AND external_id = ${session.external_id}))`
    .execute(db);
  return batch;
}

/** Recomputes the sessions' activity summary (migration 0010) after rows inserted directly. */
export async function rebuildActivity(db: Db, sessionIds: string[]) {
  await sql`SELECT session_activity_rebuild(${sessionIds}::text[])`.execute(db);
}

export async function insertMarker(
  db: Db,
  sessionId: string,
  marker: { ts: number; kind: string; data: unknown },
) {
  await db.insertInto("markers")
    .values({
      session_id: sessionId,
      session_created_at: sql<Date>`(SELECT created_at FROM sessions WHERE id = ${sessionId})`,
      ts: marker.ts,
      kind: marker.kind,
      data: jsonb(marker.data),
    })
    .execute();
  await rebuildActivity(db, [sessionId]);
}

export async function insertInvite(
  db: Db,
  organizationId: string,
  invite: { status: InviteStatus; expiresAt: Date },
) {
  return await db.insertInto("invites").values({
    id: createId(),
    organization_id: organizationId,
    email: `${createId()}@example.test`,
    role: "VIEWER",
    status: invite.status,
    expires_at: invite.expiresAt,
  }).returningAll().executeTakeFirstOrThrow();
}
