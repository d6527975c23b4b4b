// The email one-time code policy (docs/decisions.md "Sign-in and accounts"), in one place: the
// schema, the mail, the database statements that enforce the limits, the sign-in page and the API
// document all read it here.
export const OTP_CODE_LENGTH = 6;
export const OTP_TTL_SECONDS = 10 * 60;
/** Guesses allowed on one code before it stops working. */
export const OTP_MAX_ATTEMPTS = 5;
/** Codes sent per email per UTC day. */
export const OTP_DAILY_SENDS = 5;
/** The wait between two sends to the same email. */
export const OTP_COOLDOWN_SECONDS = 60;

/** The policy in one sentence, for the API document. */
export const OTP_POLICY_SUMMARY = `${OTP_CODE_LENGTH} digits, valid ${OTP_TTL_SECONDS / 60} ` +
  `minutes; ${OTP_DAILY_SENDS} sends per email per UTC day, ${OTP_COOLDOWN_SECONDS} s apart.`;
