// Each session's data key, wrapped by a store key (session_data_keys, migration 0033): looked up
// by session, added by the offloader, re-wrapped after a rotation, destroyed for an erasure.
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;

export interface WrappedKey {
  kek_id: string;
  wrapped: Uint8Array;
}

/** A session named as its batches name it, with its id and its key (null: none yet). */
export interface SessionKeyRow {
  project_id: string;
  external_id: string;
  session_id: string;
  key: WrappedKey | null;
}

/** The sessions that exist among `sessions`, each with its wrapped key if it has one. */
export async function keysOfSessions(
  db: Db,
  sessions: Array<{ project_id: string; external_id: string }>,
): Promise<SessionKeyRow[]> {
  const { rows } = await sql<
    { project_id: string; external_id: string; session_id: string } & {
      kek_id: string | null;
      wrapped: Uint8Array | null;
    }
  >`
    SELECT s.project_id, s.external_id, s.id AS session_id, k.kek_id, k.wrapped
    FROM unnest(${sessions.map((s) => s.project_id)}::text[],
      ${sessions.map((s) => s.external_id)}::text[]) AS t(project_id, external_id)
    JOIN sessions s ON s.project_id = t.project_id AND s.external_id = t.external_id
    LEFT JOIN session_data_keys k ON k.session_id = s.id`.execute(db);
  return rows.map(({ kek_id, wrapped, ...row }) => ({
    ...row,
    key: kek_id && wrapped ? { kek_id, wrapped } : null,
  }));
}

/**
 * Adds keys to the sessions that still exist; a session that has one meanwhile (another
 * offloader's) keeps its own. A session deleted while this runs (its delete not yet committed when
 * the statement began) fails the whole statement's foreign key: the keys then go one by one, and
 * that session's is dropped.
 */
export async function insertKeys(
  db: Db,
  keys: Array<WrappedKey & { session_id: string }>,
): Promise<void> {
  if (!keys.length) return;
  try {
    await sql`
      INSERT INTO session_data_keys (session_id, kek_id, wrapped)
      SELECT s.id, t.kek_id, decode(t.wrapped, 'base64')
      FROM unnest(${keys.map((k) => k.session_id)}::text[], ${keys.map((k) => k.kek_id)}::text[],
        ${keys.map((k) => k.wrapped.toBase64())}::text[]) AS t(session_id, kek_id, wrapped)
      JOIN sessions s ON s.id = t.session_id
      ON CONFLICT (session_id) DO NOTHING`.execute(db);
  } catch (error) {
    if (!foreignKeyViolation(error)) throw error;
    if (keys.length > 1) { for (const key of keys) await insertKeys(db, [key]); }
  }
}

const foreignKeyViolation = (error: unknown) =>
  (error as { code?: string } | null)?.code === "23503";

/** One session's wrapped key, or null when it has none (never had, or destroyed). */
export async function sessionKeyRow(db: Db, sessionId: string): Promise<WrappedKey | null> {
  return await db.selectFrom("session_data_keys").select(["kek_id", "wrapped"])
    .where("session_id", "=", sessionId).executeTakeFirst() ?? null;
}

/**
 * Deletes the sessions' data keys: their bytes in the store can never be opened again, at once,
 * whatever object holds them. Run it in the erasure's transaction; returns how many went.
 */
export async function destroySessionKeys(db: Db, sessionIds: string[]): Promise<number> {
  if (!sessionIds.length) return 0;
  const result = await db.deleteFrom("session_data_keys")
    .where("session_id", "in", sessionIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Up to `limit` keys wrapped by one of `kekIds` (previous store keys). */
export async function keysWrappedBy(db: Db, kekIds: string[], limit: number) {
  if (!kekIds.length) return [];
  return await db.selectFrom("session_data_keys").select(["session_id", "kek_id", "wrapped"])
    .where("kek_id", "in", kekIds).limit(limit).execute();
}

/** Replaces wrapped keys, each only if still wrapped by the key it was read under. */
export async function rewrapKeys(
  db: Db,
  keys: Array<{ session_id: string; old_kek_id: string; kek_id: string; wrapped: Uint8Array }>,
): Promise<number> {
  if (!keys.length) return 0;
  const result = await sql`
    UPDATE session_data_keys k SET kek_id = t.kek_id, wrapped = decode(t.wrapped, 'base64')
    FROM unnest(${keys.map((k) => k.session_id)}::text[], ${keys.map((k) => k.old_kek_id)}::text[],
      ${keys.map((k) => k.kek_id)}::text[], ${keys.map((k) => k.wrapped.toBase64())}::text[])
      AS t(session_id, old_kek_id, kek_id, wrapped)
    WHERE k.session_id = t.session_id AND k.kek_id = t.old_kek_id`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
