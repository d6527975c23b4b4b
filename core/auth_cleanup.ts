// The daily cleanup's extra sweep of sign-in leftovers (spent or expired one-time codes, send
// counters older than yesterday), run by core/cleanup.ts after the spec's four sweeps.
import type { Kysely } from "kysely";
import { deleteOldOtpSendCounters, deleteSpentOtpCodes } from "../db/queries/auth_cleanup.ts";
import { OTP_MAX_ATTEMPTS } from "../db/queries/otp.ts";
import type { Database } from "../db/schema.ts";
import { chunked } from "./chunked.ts";

const DAY_MS = 86_400_000;

export interface AuthCleanupCounts {
  otpCodes: number;
  otpSendCounters: number;
}

export async function sweepAuthLeftovers(
  db: Kysely<Database>,
  now: Date,
  chunkRows: number,
): Promise<AuthCleanupCounts> {
  // Yesterday's counters stay: a send just before midnight still holds the cooldown.
  const yesterday = new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
  return {
    otpCodes: await chunked(chunkRows, (n) => deleteSpentOtpCodes(db, now, OTP_MAX_ATTEMPTS, n)),
    otpSendCounters: await chunked(chunkRows, (n) => deleteOldOtpSendCounters(db, yesterday, n)),
  };
}
