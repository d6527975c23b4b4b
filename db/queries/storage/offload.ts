// The offloader's statements (migration 0016): claim a slice of staged batches, read their bytes,
// point them at their object and free their inline bytes, or let the claim go after a failure.
// A batch's partition key travels as text: a JavaScript Date would drop its microseconds.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;

export interface ClaimedBatch {
  id: number;
  /** session_created_at as PostgreSQL writes it (exact). */
  created: string;
  /** UTC day of session_created_at, YYYY-MM-DD: the object's day prefix. */
  day: string;
  project_id: string;
  session_external_id: string;
  first_ts: number;
  bytes: number;
}

/** Staged batches looked at per claim; the byte budget usually ends a slice first. */
const CLAIM_ROWS = 5_000;

/**
 * Claims the oldest staged batches nobody holds, up to `maxBytes` (at least one), for
 * `claimMs`: rows another instance is claiming right now are skipped, not waited for.
 */
export async function claimStaged(
  db: Db,
  claim: string,
  maxBytes: number,
  claimMs: number,
): Promise<ClaimedBatch[]> {
  return await db.transaction().execute(async (tx) => {
    const { rows } = await sql<ClaimedBatch>`
      SELECT id, session_created_at::text AS created,
        to_char(session_created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
        project_id, session_external_id, first_ts, octet_length(data) AS bytes
      FROM event_batches
      WHERE staged AND (offload_claim_expires IS NULL OR offload_claim_expires < now())
      ORDER BY id LIMIT ${CLAIM_ROWS}
      FOR UPDATE SKIP LOCKED`.execute(tx);
    let total = 0;
    const taken = rows.filter((row) => (total += Number(row.bytes)) <= maxBytes || row === rows[0])
      .map((row) => ({ ...row, id: Number(row.id), bytes: Number(row.bytes) }));
    if (!taken.length) return [];
    await sql`
      UPDATE event_batches b SET offload_claim = ${claim},
        offload_claim_expires = now() + ${`${claimMs} milliseconds`}::interval
      FROM unnest(${taken.map((r) => r.id)}::bigint[], ${taken.map((r) => r.created)}::text[])
        AS t(id, created)
      WHERE b.id = t.id AND b.session_created_at = t.created::timestamptz`.execute(tx);
    return taken;
  });
}

/** The inline bytes of claimed batches, by id (a batch deleted meanwhile is absent). */
export async function claimedData(
  db: Db,
  claim: string,
  batches: Pick<ClaimedBatch, "id" | "created">[],
): Promise<Map<number, Uint8Array>> {
  const { rows } = await sql<{ id: number; data: Uint8Array }>`
    SELECT b.id, b.data FROM event_batches b
    JOIN unnest(${batches.map((r) => r.id)}::bigint[], ${batches.map((r) => r.created)}::text[])
      AS t(id, created) ON b.id = t.id AND b.session_created_at = t.created::timestamptz
    WHERE b.staged AND b.offload_claim = ${claim} AND b.data IS NOT NULL`.execute(db);
  return new Map(rows.map((r) => [Number(r.id), r.data]));
}

export interface Placement {
  id: number;
  created: string;
  offset: number;
  length: number;
}

/**
 * In one transaction: the batches this claim still holds point at `key` (sealed) and lose their
 * inline bytes, and the object is recorded as committed; an object that holds bytes of batches gone
 * meanwhile (a session deleted during the upload) is marked dirty for the daily cleanup.
 * Returns how many batches now point at the object (0: the claim was lost, the object is unused).
 */
export async function commitObject(
  db: Db,
  claim: string,
  key: string,
  placements: Placement[],
): Promise<number> {
  return await db.transaction().execute(async (tx) => {
    const result = await sql`
      UPDATE event_batches b SET object_key = ${key}, object_offset = t.offset,
        object_length = t.length, object_sealed = true, data = NULL, staged = NULL,
        offload_claim = NULL, offload_claim_expires = NULL
      FROM unnest(${placements.map((p) => p.id)}::bigint[],
        ${placements.map((p) => p.created)}::text[], ${placements.map((p) => p.offset)}::bigint[],
        ${placements.map((p) => p.length)}::integer[]) AS t(id, created, "offset", length)
      WHERE b.id = t.id AND b.session_created_at = t.created::timestamptz
        AND b.staged AND b.offload_claim = ${claim}`.execute(tx);
    const moved = Number(result.numAffectedRows ?? 0n);
    if (moved > 0) {
      await tx.updateTable("stored_objects")
        .set({ committed: true, dirty: moved < placements.length })
        .where("key", "=", key).execute();
    }
    return moved;
  });
}

/** Lets a claim go after a failed upload, so the next pass (here or elsewhere) takes the rows. */
export async function releaseClaim(db: Db, claim: string, ids: number[]): Promise<void> {
  await sql`
    UPDATE event_batches SET offload_claim = NULL, offload_claim_expires = NULL
    WHERE staged AND id = ANY(${ids}::bigint[]) AND offload_claim = ${claim}`.execute(db);
}

/** Records an object before its upload: one that stays uncommitted is an orphan to sweep. */
export async function recordObject(
  db: Db,
  key: string,
  day: string,
  bytes: number,
  pinned = false,
) {
  await db.insertInto("stored_objects").values({ key, day, bytes, pinned }).execute();
}

/** Staged (not yet offloaded) batches and their bytes: what is waiting in PostgreSQL. */
export async function stagedTotals(db: Db): Promise<{ batches: number; bytes: number }> {
  const { rows } = await sql<{ batches: string; bytes: string | null }>`
    SELECT count(*) AS batches, sum(octet_length(data)) AS bytes
    FROM event_batches WHERE staged`.execute(db);
  return { batches: Number(rows[0].batches), bytes: Number(rows[0].bytes ?? 0) };
}
