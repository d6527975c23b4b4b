// The configuration rules that span several variables (sign-in methods set in pairs, what
// production requires), reported together with the per-variable problems.
import type { Env } from "./env.ts";
import { MIN_SECRET_LENGTH, weakSecret } from "./secret.ts";

/** A pair of variables that enables one primary sign-in method only when both are set. */
export const PRIMARY_METHOD_PAIRS = [
  ["AUTH_OAUTH_A_ID", "AUTH_OAUTH_A_SECRET"],
  ["AUTH_OAUTH_B_ID", "AUTH_OAUTH_B_SECRET"],
  ["MAIL_USER", "MAIL_APP_PASSWORD"],
] as const;

/** Rules that span several variables, reported together with the per-variable ones. */
export const crossFieldRules: Array<(env: Env) => string[]> = [
  (env) =>
    PRIMARY_METHOD_PAIRS.flatMap(([a, b]) =>
      Boolean(env[a]) === Boolean(env[b]) ? [] : [`${a} and ${b} must be set together`]
    ),
  (env) => {
    if (env.NODE_ENV !== "production") return [];
    if (!env.AUTH_SECRET) return ["AUTH_SECRET is required in production"];
    const weak = weakSecret(env.AUTH_SECRET);
    return weak
      ? [
        `AUTH_SECRET is too weak for production (${weak}): use at least ${MIN_SECRET_LENGTH} ` +
        "random characters, e.g. `openssl rand -base64 32`",
      ]
      : [];
  },
  // Anyone can send guesses to /metrics: production takes only a token as strong as AUTH_SECRET.
  (env) => {
    const weak = env.NODE_ENV === "production" && env.METRICS_TOKEN
      ? weakSecret(env.METRICS_TOKEN)
      : "";
    return weak
      ? [
        `METRICS_TOKEN is too weak for production (${weak}): use at least ${MIN_SECRET_LENGTH} ` +
        "random characters, e.g. `openssl rand -base64 32`",
      ]
      : [];
  },
  (env) =>
    env.NODE_ENV === "production" && !(env.APP_URL ?? env.AUTH_URL ?? env.PLATFORM_URL)
      ? ["APP_URL (or AUTH_URL or PLATFORM_URL) is required in production"]
      : [],
  // Outside development (and tests) someone must be able to sign in: one primary method at least.
  (env) =>
    env.NODE_ENV === "production" && !PRIMARY_METHOD_PAIRS.some(([a, b]) => env[a] && env[b])
      ? [
        "no primary sign-in method is configured: set " +
        PRIMARY_METHOD_PAIRS.map(([a, b]) => `${a} + ${b}`).join(", or "),
      ]
      : [],
  (env) =>
    env.NODE_ENV === "production" && !env.DATABASE_URL
      ? ["DATABASE_URL is required in production"]
      : [],
  // Without it the recordings' keys would be sealed by development's well-known key.
  (env) =>
    env.NODE_ENV === "production" && env.EVENTS_STORE && !env.EVENTS_STORE_KEY
      ? [
        "EVENTS_STORE_KEY is required in production with EVENTS_STORE: 32 random bytes in " +
        "base64 that wrap the recordings' keys, e.g. `openssl rand -base64 32`",
      ]
      : [],
  (env) =>
    env.EVENTS_STORE && !(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY)
      ? ["EVENTS_STORE needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"]
      : [],
];
