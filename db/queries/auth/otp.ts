// One-time codes and their send counters. The limits (core/auth/otp_policy.ts) are enforced by the
// statements themselves (atomic upserts and guarded updates), so any number of instances share them.
import { createId } from "@paralleldrive/cuid2";
import { type Kysely, sql } from "kysely";
import type { Database } from "@/db/schema.ts";

const TODAY = sql`(now() AT TIME ZONE 'UTC')::date`;

export interface OtpSendLimits {
  dailySends: number;
  cooldownSeconds: number;
}

/**
 * Counts one send for the email unless today's cap is reached or the last send (today, or late
 * yesterday) is within the cooldown. True when the send may go ahead.
 */
export async function claimOtpSend(
  db: Kysely<Database>,
  email: string,
  limits: OtpSendLimits,
): Promise<boolean> {
  const cooldown = sql`now() - make_interval(secs => ${limits.cooldownSeconds})`;
  const { rows } = await sql<{ count: number }>`
    INSERT INTO otp_send_counters AS c (email, day, count, last_sent_at)
    SELECT ${email}, ${TODAY}, 1, now()
    WHERE NOT EXISTS (
      SELECT 1 FROM otp_send_counters
      WHERE email = ${email} AND day = ${TODAY} - 1 AND last_sent_at > ${cooldown}
    )
    ON CONFLICT (email, day) DO UPDATE SET count = c.count + 1, last_sent_at = now()
      WHERE c.count < ${limits.dailySends} AND c.last_sent_at <= ${cooldown}
    RETURNING count`.execute(db);
  return rows.length > 0;
}

/** Today's send count, the latest send and the database's clock, to compute a retry delay. */
export async function otpSendState(db: Kysely<Database>, email: string) {
  const { rows } = await sql<{ count: number | null; last_sent_at: Date | null; now: Date }>`
    SELECT
      (SELECT count FROM otp_send_counters WHERE email = ${email} AND day = ${TODAY}) AS count,
      (SELECT max(last_sent_at) FROM otp_send_counters
        WHERE email = ${email} AND day >= ${TODAY} - 1) AS last_sent_at,
      now() AS now`.execute(db);
  const row = rows[0];
  return { count: row.count ?? 0, lastSentAt: row.last_sent_at, now: new Date(row.now) };
}

/** Stores a new code for the email, replacing any unused one (only the latest code works). */
export async function storeOtpCode(
  db: Kysely<Database>,
  email: string,
  codeHash: string,
  ttlSeconds: number,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom("otp_codes").where(sql`lower(email)`, "=", email)
      .where("consumed_at", "is", null).execute();
    await tx.insertInto("otp_codes").values({
      id: createId(),
      email,
      code_hash: codeHash,
      expires_at: sql<Date>`now() + make_interval(secs => ${ttlSeconds})`,
    }).execute();
  });
}

/**
 * Spends one attempt on the email's live code and consumes it when the hash matches. The row
 * lock serialises concurrent guesses, so a code never sees more than `maxAttempts` of them.
 */
export async function attemptOtpCode(
  db: Kysely<Database>,
  email: string,
  codeHash: string,
  maxAttempts: number,
): Promise<boolean> {
  const { rows } = await sql<{ ok: boolean }>`
    UPDATE otp_codes SET attempts = attempts + 1,
      consumed_at = CASE WHEN code_hash = ${codeHash} THEN now() END
    WHERE lower(email) = ${email} AND consumed_at IS NULL AND expires_at > now()
      AND attempts < ${maxAttempts}
    RETURNING consumed_at IS NOT NULL AS ok`.execute(db);
  return rows.some((row) => row.ok);
}
