// Sign-in leftovers for the daily cleanup: one-time codes that can no longer be used and send
// counters older than yesterday (the cooldown still reads yesterday's). Bounded like the others.
import { type Kysely, sql } from "kysely";
import type { Database } from "../../schema.ts";

type Db = Kysely<Database>;

/** Codes consumed, burned by `maxAttempts` wrong guesses, or expired before `now`. */
export async function deleteSpentOtpCodes(
  db: Db,
  now: Date,
  maxAttempts: number,
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ deleted: number }>`
    WITH gone AS (
      DELETE FROM otp_codes WHERE id IN (
        SELECT id FROM otp_codes
        WHERE consumed_at IS NOT NULL OR attempts >= ${maxAttempts} OR expires_at < ${now}
        LIMIT ${limit})
      RETURNING 1
    )
    SELECT count(*)::integer AS deleted FROM gone`.execute(db);
  return rows[0].deleted;
}

/** Send counters of UTC days before `firstKeptDay` (YYYY-MM-DD). */
export async function deleteOldOtpSendCounters(
  db: Db,
  firstKeptDay: string,
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ deleted: number }>`
    WITH gone AS (
      DELETE FROM otp_send_counters WHERE (email, day) IN (
        SELECT email, day FROM otp_send_counters WHERE day < ${firstKeptDay}::date LIMIT ${limit})
      RETURNING 1
    )
    SELECT count(*)::integer AS deleted FROM gone`.execute(db);
  return rows[0].deleted;
}

/** Rows of a table with an `expires_at` before `now` (challenges, OAuth states, revocations). */
export async function deleteExpiredRows(
  db: Db,
  table: "webauthn_challenges" | "oauth_states" | "revoked_tokens",
  now: Date,
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ deleted: number }>`
    WITH gone AS (
      DELETE FROM ${sql.table(table)} WHERE ctid IN (
        SELECT ctid FROM ${sql.table(table)} WHERE expires_at < ${now} LIMIT ${limit})
      RETURNING 1
    )
    SELECT count(*)::integer AS deleted FROM gone`.execute(db);
  return rows[0].deleted;
}

/** Throttle counters of windows that began before `before`. */
export async function deleteOldRateLimitCounters(
  db: Db,
  before: Date,
  limit: number,
): Promise<number> {
  const { rows } = await sql<{ deleted: number }>`
    WITH gone AS (
      DELETE FROM rate_limit_counters WHERE ctid IN (
        SELECT ctid FROM rate_limit_counters WHERE window_start < ${before} LIMIT ${limit})
      RETURNING 1
    )
    SELECT count(*)::integer AS deleted FROM gone`.execute(db);
  return rows[0].deleted;
}
