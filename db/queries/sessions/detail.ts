// One session of an organization: its metadata with the tracked user, its markers, its deletion
// and its stored event batches (metadata first, then the gzip bytes in bounded groups).
import { type ExpressionBuilder, type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { displayNameSql } from "@/db/queries/tracked_users/display_name.ts";

/** The session row with project and tracked user, or null when the organization has no such session. */
export async function findSession(db: Kysely<Database>, organizationId: string, id: string) {
  const row = await db.selectFrom("sessions")
    .innerJoin("projects", "projects.id", "sessions.project_id")
    .leftJoin("tracked_users", "tracked_users.id", "sessions.tracked_user_id")
    .selectAll("sessions")
    .select([
      "projects.name as project_name",
      "tracked_users.external_id as user_external_id",
      displayNameSql().as("user_display_name"),
      sql<Record<string, unknown> | null>`tracked_users.traits`.as("user_traits"),
    ])
    .where("sessions.organization_id", "=", organizationId)
    .where("sessions.id", "=", id)
    .executeTakeFirst();
  return row ?? null;
}

export type SessionRow = NonNullable<Awaited<ReturnType<typeof findSession>>>;

/** The session's markers in time order (from the partition of the session's day, migration 0012). */
export async function sessionMarkers(db: Kysely<Database>, sessionId: string, kind: string | null) {
  let q = db.selectFrom("markers").select(["ts", "kind", "data"])
    .where("session_id", "=", sessionId)
    .where(
      "session_created_at",
      "=",
      (eb) => eb.selectFrom("sessions").select("created_at").where("id", "=", sessionId),
    );
  if (kind) q = q.where("kind", "=", kind);
  return await q.orderBy("ts").orderBy("id").execute();
}

/**
 * A session whose batches are read. They sit in the partition of the session's day (migration
 * 0012), which a read names by the session's created_at as stored: a JavaScript Date would drop
 * its microseconds.
 */
export type BatchSession = { project_id: string; external_id: string };

export interface BatchMeta {
  id: number;
  first_ts: number;
  last_ts: number;
  event_count: number;
  /** Stored gzip size in bytes. */
  bytes: number;
  /** Its bytes are in the object store (migration 0016). */
  offloaded: boolean;
}

/** A batch's place in replay order: by first_ts, then id. */
export interface BatchPlace {
  first_ts: number;
  id: number;
}

/** Which batches to read: stored after batch `after`, from one place on, before another. */
export interface BatchSelection {
  after?: number | null;
  from?: BatchPlace | null;
  before?: BatchPlace | null;
}

/** The session's batches (those selected) without their data, in replay order. */
export async function batchMetas(
  db: Kysely<Database>,
  session: BatchSession,
  { after = null, from = null, before = null }: BatchSelection = {},
): Promise<BatchMeta[]> {
  let q = db.selectFrom("event_batches")
    .select([
      "id",
      "first_ts",
      "last_ts",
      "event_count",
      sql<number>`COALESCE(object_length, octet_length(data))`.as("bytes"),
      sql<boolean>`object_key IS NOT NULL`.as("offloaded"),
    ])
    .where("project_id", "=", session.project_id)
    .where("session_external_id", "=", session.external_id)
    .where("session_created_at", "=", createdAtOf(session));
  if (after !== null) q = q.where("id", ">", after);
  if (from !== null) {
    q = q.where((eb) => eb(eb.refTuple("first_ts", "id"), ">=", eb.tuple(from.first_ts, from.id)));
  }
  if (before !== null) {
    q = q.where((eb) =>
      eb(eb.refTuple("first_ts", "id"), "<", eb.tuple(before.first_ts, before.id))
    );
  }
  return await q.orderBy("first_ts").orderBy("id").execute();
}

/**
 * The last batch in replay order holding a full snapshot (led by its Meta, migration 0015) taken
 * at or before `timestamp` (epoch ms): a replay of that moment can start there. Null when none.
 */
export async function snapshotBatchAt(
  db: Kysely<Database>,
  session: BatchSession,
  timestamp: number,
): Promise<BatchPlace | null> {
  const row = await db.selectFrom("event_batches").select(["first_ts", "id"])
    .where("project_id", "=", session.project_id)
    .where("session_external_id", "=", session.external_id)
    .where("session_created_at", "=", createdAtOf(session))
    .where("snapshot_ts", "<=", timestamp)
    .orderBy("first_ts", "desc").orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Where a batch's gzip bytes are: inline, or a byte range of an object in the store (0016),
 * `sealed` under its session's data key (0033) or in clear (offloaded before 0033).
 */
export type BatchBytes = { data: Uint8Array } | StoredRange;
export type StoredRange = { key: string; offset: number; length: number; sealed: boolean };

/** The stored gzip bytes of the given batches (or where they are), by id. */
export async function batchData(
  db: Kysely<Database>,
  session: BatchSession,
  ids: number[],
): Promise<Map<number, BatchBytes>> {
  const rows = await db.selectFrom("event_batches")
    .select(["id", "data", "object_key", "object_offset", "object_length", "object_sealed"])
    .where("project_id", "=", session.project_id)
    .where("session_external_id", "=", session.external_id)
    .where("session_created_at", "=", createdAtOf(session))
    .where("id", "in", ids)
    .execute();
  return new Map(rows.map((r) => [r.id, bytesOf(r, r.data)]));
}

type Placed = {
  object_key: string | null;
  object_offset: number | string | null;
  object_length: number | null;
  object_sealed: boolean | null;
};

function bytesOf(row: Placed, data: Uint8Array | null): BatchBytes {
  if (data !== null || row.object_key === null) return { data: data ?? new Uint8Array() };
  return {
    key: row.object_key,
    offset: Number(row.object_offset),
    length: row.object_length!,
    sealed: row.object_sealed === true,
  };
}

/**
 * `length` stored gzip bytes from byte `from` (0-based) of the session's batch at `index` in
 * replay order (or the range of its object that holds them; a sealed batch's whole range, since
 * only all of it opens), with its id; null past the last batch, empty past the batch's end.
 */
export async function batchDataSlice(
  db: Kysely<Database>,
  session: BatchSession,
  index: number,
  from: number,
  length: number,
): Promise<(BatchBytes & { id: number }) | null> {
  const row = await db.selectFrom("event_batches")
    .select(sql<Uint8Array | null>`substring(data from ${from + 1} for ${length})`.as("data"))
    .select(["id", "object_key", "object_offset", "object_length", "object_sealed"])
    .where("project_id", "=", session.project_id)
    .where("session_external_id", "=", session.external_id)
    .where("session_created_at", "=", createdAtOf(session))
    .orderBy("first_ts").orderBy("id")
    .limit(1).offset(index)
    .executeTakeFirst();
  if (!row) return null;
  const bytes = { ...bytesOf(row, row.data), id: row.id };
  if ("data" in bytes || bytes.sealed) return bytes;
  const end = Math.min(from + length, bytes.length);
  return { ...bytes, offset: bytes.offset + from, length: Math.max(0, end - from) };
}

/** The stored created_at of the session, as a subquery (pruned to one partition at run time). */
function createdAtOf(session: BatchSession) {
  return (eb: ExpressionBuilder<Database, "event_batches">) =>
    eb.selectFrom("sessions").select("created_at")
      .where("project_id", "=", session.project_id)
      .where("external_id", "=", session.external_id);
}
