// Sign-in leftovers for the daily cleanup: one-time codes that can no longer be used and send
// counters older than yesterday (the cooldown still reads yesterday's), expired challenges, OAuth
// states, revocations and throttle windows. Bounded like the others: `limit` rows per call.
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

type Db = Kysely<Database>;

/** Deletes at most `limit` rows of `table` matching `where`; the number deleted. */
async function deleteSome(
  db: Db,
  table: keyof Database,
  where: RawBuilder<unknown>,
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ deleted: number }>`
    WITH gone AS (
      DELETE FROM ${sql.table(table)} WHERE ctid IN (
        SELECT ctid FROM ${sql.table(table)} WHERE ${where} LIMIT ${limit})
      RETURNING 1
    )
    SELECT count(*)::integer AS deleted FROM gone`.execute(db);
  return rows[0].deleted;
}

/** Codes consumed, burned by `maxAttempts` wrong guesses, or expired before `now`. */
export function deleteSpentOtpCodes(
  db: Db,
  now: Date,
  maxAttempts: number,
  limit: number,
): Promise<number> {
  const where = sql`consumed_at IS NOT NULL OR attempts >= ${maxAttempts} OR expires_at < ${now}`;
  return deleteSome(db, "otp_codes", where, limit);
}

/** Send counters of UTC days before `firstKeptDay` (YYYY-MM-DD). */
export function deleteOldOtpSendCounters(
  db: Db,
  firstKeptDay: string,
  limit: number,
): Promise<number> {
  return deleteSome(db, "otp_send_counters", sql`day < ${firstKeptDay}::date`, limit);
}

/** Rows of a table with an `expires_at` before `now` (challenges, OAuth states, revocations). */
export function deleteExpiredRows(
  db: Db,
  table: "webauthn_challenges" | "oauth_states" | "revoked_tokens",
  now: Date,
  limit: number,
): Promise<number> {
  return deleteSome(db, table, sql`expires_at < ${now}`, limit);
}

/** Throttle counters of windows that began before `before`. */
export function deleteOldRateLimitCounters(
  db: Db,
  before: Date,
  limit: number,
): Promise<number> {
  return deleteSome(db, "rate_limit_counters", sql`window_start < ${before}`, limit);
}
