// The daily cleanup's statements (spec §3, DECISIONS "Cleanup"). Each deletes at most `limit`
// rows so no statement holds locks long enough to stall ingest; callers repeat until a chunk
// comes back short. Cascades (batches, markers, invites, projects) follow the foreign keys.
import { type Kysely, sql } from "kysely";
import type { Database } from "../../schema.ts";

type Db = Kysely<Database>;

/** Tries the session-level advisory lock that keeps two instances from sweeping at once. */
export async function tryCleanupLock(db: Db): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    SELECT pg_try_advisory_lock(hashtext('playhead:daily-cleanup')) AS locked`.execute(db);
  return rows[0].locked;
}

export async function releaseCleanupLock(db: Db): Promise<void> {
  await sql`SELECT pg_advisory_unlock(hashtext('playhead:daily-cleanup'))`.execute(db);
}

/** Invites past expiry while PENDING or EXPIRED, and every ACCEPTED or DECLINED one. */
export async function deleteStaleInvites(db: Db, now: Date, limit: number): Promise<number> {
  const result = await db.deleteFrom("invites").where(
    "id",
    "in",
    (eb) =>
      eb.selectFrom("invites").select("id").where((w) =>
        w.or([
          w.and([w("status", "in", ["PENDING", "EXPIRED"]), w("expires_at", "<", now)]),
          w("status", "in", ["ACCEPTED", "DECLINED"]),
        ])
      ).limit(limit),
  ).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Sessions created before `cutoff`; rows ingest holds right now are left for the next chunk. */
export async function deleteOldSessions(db: Db, cutoff: Date, limit: number): Promise<number> {
  const result = await db.deleteFrom("sessions").where(
    "id",
    "in",
    (eb) =>
      eb.selectFrom("sessions").select("id").where("created_at", "<", cutoff)
        .orderBy("created_at").limit(limit).forUpdate().skipLocked(),
  ).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Tracked users without sessions, untouched since `settledBefore` (see core/cleanup.ts). */
export async function deleteLonelyTrackedUsers(
  db: Db,
  settledBefore: Date,
  limit: number,
): Promise<number> {
  const result = await db.deleteFrom("tracked_users").where(
    "id",
    "in",
    (eb) =>
      eb.selectFrom("tracked_users as t").select("t.id")
        .where("t.updated_at", "<", settledBefore)
        .where(({ not, exists, selectFrom }) =>
          not(exists(
            selectFrom("sessions").select(sql.lit(1).as("one")).whereRef(
              "sessions.tracked_user_id",
              "=",
              "t.id",
            ),
          ))
        )
        .limit(limit),
  ).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Organizations without memberships created before `settledBefore`, except the `spared` ones.
 * The users pointing at them lose their active organization first, in the same statement (spec §2
 * rule 4).
 */
export async function deleteEmptyOrganizations(
  db: Db,
  settledBefore: Date,
  limit: number,
  spared: string[] = [],
): Promise<number> {
  // `<> ALL('{}')` is true, so an empty list spares nothing.
  const { rows } = await sql<{ deleted: number }>`
    WITH doomed AS (
      SELECT o.id FROM organizations o
      WHERE o.created_at < ${settledBefore}
        AND o.id <> ALL(${spared}::text[])
        AND NOT EXISTS (SELECT 1 FROM memberships m WHERE m.organization_id = o.id)
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ),
    -- a data-modifying CTE runs even unreferenced; the FK's SET NULL is only the safety net
    unpointed AS (
      UPDATE users SET active_organization_id = NULL, updated_at = now()
      WHERE active_organization_id IN (SELECT id FROM doomed)
      RETURNING 1
    ),
    gone AS (
      DELETE FROM organizations WHERE id IN (SELECT id FROM doomed)
      RETURNING 1
    )
    SELECT count(*)::integer AS deleted FROM gone
  `.execute(db);
  return rows[0].deleted;
}
