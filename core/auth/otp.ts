// Email one-time codes: stored as an HMAC peppered with AUTH_SECRET, single use, with
// the length, lifetime, attempts and send limits of core/auth/otp_policy.ts.
import type { AppDeps } from "@/core/deps.ts";
import { attemptOtpCode, claimOtpSend, otpSendState, storeOtpCode } from "@/db/queries/auth/otp.ts";
import { findOrCreateUser, findUserByEmail } from "@/db/queries/account/users.ts";
import { log, say } from "@/log.ts";
import { newUserStart } from "@/core/auth/new_user.ts";
import { authError, rateLimited, unavailable } from "@/core/errors.ts";
import { throttle } from "@/core/throttle.ts";
import { emailCodeAvailable } from "./methods.ts";
import {
  OTP_CODE_LENGTH,
  OTP_COOLDOWN_SECONDS,
  OTP_DAILY_SENDS,
  OTP_MAX_ATTEMPTS,
  OTP_TTL_SECONDS,
} from "./otp_policy.ts";

const SEND_LIMITS = { dailySends: OTP_DAILY_SENDS, cooldownSeconds: OTP_COOLDOWN_SECONDS };
const DAY_MS = 86_400_000;

type OtpDeps = Pick<AppDeps, "config" | "db" | "authSecret" | "mailer">;

/** Sends a fresh code to `email` (already trimmed and lower-cased), or throws rate_limited. */
export async function sendOtp(
  deps: OtpDeps,
  email: string,
  context: { requestId?: string } = {},
): Promise<void> {
  if (!emailCodeAvailable(deps.config)) throw unavailable("email sign-in is not configured");
  const db = deps.db.kysely;
  // The hourly budget in total, one for existing accounts and one for new addresses: codes
  // sprayed at made-up addresses (from many clients) cannot lock the users out.
  const known = (await findUserByEmail(db, email)) !== null;
  await throttle(db, [{
    bucket: known ? "otp:all:known" : "otp:all:new",
    max: deps.config.limits.otpSendsHourly,
    windowSeconds: 3600,
  }], { tag: "auth:otp", requestId: context.requestId });
  if (!await claimOtpSend(db, email, SEND_LIMITS)) {
    const { count, lastSentAt, now } = await otpSendState(db, email);
    const capped = count >= OTP_DAILY_SENDS;
    const waitMs = capped
      ? DAY_MS - (now.getTime() % DAY_MS) // until the next UTC midnight
      : (lastSentAt?.getTime() ?? 0) + OTP_COOLDOWN_SECONDS * 1000 - now.getTime();
    const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
    log.warn("auth:otp:cooldown_blocked", {
      ...context,
      email,
      reason: capped ? "daily_cap" : "cooldown",
      retryAfter,
    });
    throw rateLimited(capped ? "too many codes today" : "wait before asking again", retryAfter);
  }

  const code = randomCode();
  await storeOtpCode(db, email, await hashCode(deps.authSecret, email, code), OTP_TTL_SECONDS);
  if (!deps.mailer) {
    // Development without mail: the operator reads the code from the log.
    log.info("auth:otp:dev_code", { ...context, email, code });
    say(`Sign-in code for ${email}: ${code}`);
    return;
  }
  try {
    await deps.mailer.send({
      to: email,
      subject: `${code} is your Playhead sign-in code`,
      text: `Your Playhead sign-in code is ${code}.\n\nIt expires in 10 minutes. ` +
        `If you did not ask for it, ignore this email.\n`,
    });
  } catch (error) {
    log.warn("auth:otp:email_failed", { ...context, error: String(error) });
    throw unavailable("the code could not be sent; try again later");
  }
}

/** Consumes the code and returns the user it signs in, creating a new user on first sign-in. */
export async function verifyOtp(
  deps: OtpDeps,
  input: { email: string; code: string; name?: string },
): Promise<{ userId: string; created: boolean }> {
  const hash = await hashCode(deps.authSecret, input.email, input.code);
  if (!await attemptOtpCode(deps.db.kysely, input.email, hash, OTP_MAX_ATTEMPTS)) {
    throw authError("the code is wrong, expired or already used");
  }
  const person = { email: input.email, name: input.name ?? null };
  const user = await findOrCreateUser(deps.db.kysely, {
    ...person,
    ...await newUserStart(deps, person),
    verified: true,
  });
  if (user.adopted) log.info("dev:playground:claimed", { userId: user.id });
  return { userId: user.id, created: user.created };
}

const CODES = 10 ** OTP_CODE_LENGTH;
const UNBIASED_LIMIT = Math.floor(2 ** 32 / CODES) * CODES;

/** OTP_CODE_LENGTH uniformly random digits (rejection sampling avoids modulo bias). */
export function randomCode(): string {
  for (;;) {
    const [n] = crypto.getRandomValues(new Uint32Array(1));
    if (n < UNBIASED_LIMIT) return String(n % CODES).padStart(OTP_CODE_LENGTH, "0");
  }
}

async function hashCode(secret: string, email: string, code: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(`otp:${secret}`),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(`${email}:${code}`));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, "0")).join("");
}
