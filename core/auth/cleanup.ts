// The daily cleanup's extra sweep of sign-in leftovers (spent or expired one-time codes, send
// counters older than yesterday, expired passkey challenges, OAuth states and token revocations,
// throttle counters of past windows), run by core/service/cleanup.ts after its four main sweeps.
import type { Kysely } from "kysely";
import {
  deleteExpiredRows,
  deleteOldOtpSendCounters,
  deleteOldRateLimitCounters,
  deleteSpentOtpCodes,
} from "@/db/queries/auth/cleanup.ts";
import { OTP_MAX_ATTEMPTS } from "./otp_policy.ts";
import type { Database } from "@/db/schema.ts";
import { chunked } from "@/core/chunked.ts";

const DAY_MS = 86_400_000;

export interface AuthCleanupCounts {
  otpCodes: number;
  otpSendCounters: number;
  passkeyChallenges: number;
  oauthStates: number;
  revokedTokens: number;
  rateLimitCounters: number;
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
    passkeyChallenges: await chunked(
      chunkRows,
      (n) => deleteExpiredRows(db, "webauthn_challenges", now, n),
    ),
    oauthStates: await chunked(chunkRows, (n) => deleteExpiredRows(db, "oauth_states", now, n)),
    revokedTokens: await chunked(chunkRows, (n) => deleteExpiredRows(db, "revoked_tokens", now, n)),
    // Every throttle window is at most a day long.
    rateLimitCounters: await chunked(
      chunkRows,
      (n) => deleteOldRateLimitCounters(db, new Date(now.getTime() - DAY_MS), n),
    ),
  };
}
