// Erasure of sessions (docs/decisions.md "Erasure"), set-based, inside the caller's transaction:
// the sessions a scope selects are tombstoned (ingest refuses their late batches), their data keys
// destroyed (their bytes in the store no longer open), then deleted (their batches, markers and
// page sequences by the sessions' delete triggers, shares, comments and keys by cascade), and no
// signal rollup left showing their text (db/queries/sessions/erase_signals.ts).
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";
import { destroySessionKeys } from "@/db/queries/storage/keys.ts";
import { retakeSignalRows, signalKeysOf } from "@/db/queries/sessions/erase_signals.ts";

type Db = Kysely<Database>;

/** Which sessions: one of an organization, or every one of a tracked user. */
export type EraseScope =
  | { organizationId: string; sessionId: string }
  | { organizationId: string; trackedUserId: string }
  | { projectId: string; externalId: string };

export interface ErasedCounts {
  sessions: number;
  batches: number;
  keys: number;
  /** Bytes of recorded events held inline in PostgreSQL (not yet offloaded), now deleted. */
  inlineBytes: number;
}

// 1,000 sessions a statement: well under both drivers' parameter limits.
const CHUNK = 1_000;

function where(scope: EraseScope) {
  if ("externalId" in scope) {
    return sql`s.project_id = ${scope.projectId} AND s.external_id = ${scope.externalId}`;
  }
  if ("sessionId" in scope) {
    return sql`s.organization_id = ${scope.organizationId} AND s.id = ${scope.sessionId}`;
  }
  return sql`s.organization_id = ${scope.organizationId}
    AND s.tracked_user_id = ${scope.trackedUserId}`;
}

/**
 * Erases the scope's sessions; call inside a transaction (`trx`), which it does not commit. The
 * sessions are locked and read once, then everything else goes by their ids, in chunks, so a
 * session linked to the user meanwhile is neither half erased nor missed by its tombstone.
 */
export async function eraseSessions(trx: Db, scope: EraseScope): Promise<ErasedCounts> {
  const { rows: sessions } = await sql<{ id: string; organization_id: string }>`
    SELECT s.id, s.organization_id FROM sessions s WHERE ${where(scope)} ORDER BY s.id FOR UPDATE
  `.execute(trx);
  const out = { sessions: 0, batches: 0, keys: 0, inlineBytes: 0 };
  for (let i = 0; i < sessions.length; i += CHUNK) {
    const ids = sessions.slice(i, i + CHUNK).map((s) => s.id);
    const inIds = sql.join(ids.map((id) => sql`${id}`));
    const { rows: [stats] } = await sql<{ batches: number; inline_bytes: string | number }>`
      SELECT count(*)::integer AS batches, COALESCE(sum(octet_length(b.data)), 0)::bigint
        AS inline_bytes
      FROM sessions s JOIN event_batches b ON b.project_id = s.project_id
        AND b.session_external_id = s.external_id AND b.session_created_at = s.created_at
      WHERE s.id IN (${inIds})
    `.execute(trx);
    await sql`
      INSERT INTO erased_sessions (project_id, external_id)
      SELECT s.project_id, s.external_id FROM sessions s WHERE s.id IN (${inIds})
      ON CONFLICT (project_id, external_id) DO UPDATE SET erased_at = now()
    `.execute(trx);
    out.keys += await destroySessionKeys(trx, ids);
    const signals = await signalKeysOf(trx, ids);
    const deleted = await trx.deleteFrom("sessions").where("id", "in", ids).executeTakeFirst();
    await retakeSignalRows(trx, sessions[0].organization_id, signals);
    out.sessions += Number(deleted.numDeletedRows);
    out.batches += stats.batches;
    out.inlineBytes += Number(stats.inline_bytes);
  }
  return out;
}

/** Tombstones older than `before` (past the oldest recorded time ingest accepts). */
export async function sweepTombstones(db: Db, before: Date): Promise<number> {
  const result = await db.deleteFrom("erased_sessions").where("erased_at", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
