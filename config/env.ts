// The environment variables the service reads, each with its type and default, and how an
// environment is parsed: blank counts as unset, and every invalid variable is named at once.
import { z } from "zod";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type NodeEnv = "production" | "development" | "test";

const optionalText = z.string().trim().min(1).optional();
const optionalUrl = z.url().optional();
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
/** 32 bytes in base64, not all alike: a key-encryption key (the value is never echoed). */
const storeKey = z.string().trim().refine((text) => {
  try {
    const bytes = Uint8Array.fromBase64(text);
    return bytes.length === 32 && new Set(bytes).size >= 8;
  } catch {
    return false;
  }
}, "must be 32 random bytes in base64, e.g. `openssl rand -base64 32`");
/** A host name or IP address (IPv6 in brackets), with a port or without. */
const HOST_ENTRY = /^([a-z0-9-]+(\.[a-z0-9-]+)*\.?|\[[0-9a-f:.]+\])(:\d{1,5})?$/;

export const envSchema = z.object({
  // Strict unless told otherwise: a deployment that forgets NODE_ENV must not become a development
  // server. `deno task dev` and the test helpers set it explicitly.
  NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: optionalUrl,
  PLATFORM_URL: optionalUrl,
  AUTH_URL: optionalUrl,
  AUTH_SECRET: optionalText,
  AUTH_OAUTH_A_ID: optionalText,
  AUTH_OAUTH_A_SECRET: optionalText,
  AUTH_OAUTH_A_BASE_URL: z.url().default("https://github.com"),
  AUTH_OAUTH_A_API_URL: z.url().default("https://api.github.com"),
  AUTH_OAUTH_B_ID: optionalText,
  AUTH_OAUTH_B_SECRET: optionalText,
  AUTH_OAUTH_B_ISSUER: z.url().default("https://accounts.google.com"),
  MAIL_USER: optionalText,
  MAIL_APP_PASSWORD: optionalText,
  MAIL_HOST: z.string().trim().min(1).default("smtp.gmail.com"),
  MAIL_PORT: z.coerce.number().int().min(1).max(65535).default(465),
  MAIL_FROM: optionalText,
  CRON_SECRET: optionalText,
  // Bearer token of GET /metrics (README "Metrics"); unset, the endpoint is off (404).
  METRICS_TOKEN: optionalText,
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional(),
  DATABASE_URL_UNPOOLED: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
    .optional(),
  DATA_DIR: z.string().min(1).default(".data"),
  NEXT_PUBLIC_SERVICE_DEMO_MODE: z.enum(["true", "false"]).optional(),
  MONITORING_DSN: optionalUrl,
  LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
  // Reliability (docs/decisions.md "Reliability"): limits, timeouts and pool sizes, each with a
  // safe default.
  TRUST_PROXY: z.enum(["true", "false"]).default("false"),
  OTP_SENDS_PER_ADDRESS_HOURLY: positiveInt(20),
  OTP_SENDS_HOURLY: positiveInt(300),
  PASSKEY_OPTIONS_PER_ADDRESS_MINUTE: positiveInt(30),
  // The stored event bytes a replay export may hold (docs/decisions.md "Exports"): 100 MiB.
  EXPORT_MAX_BYTES: positiveInt(100 * 1024 * 1024),
  // Hosts an export may fetch a recording's images from though they resolve to private addresses
  // (docs/decisions.md "Exports"): recorded sites on the server's own network. A comma list of
  // `host` (any port) or `host:port`; none by default.
  EXPORT_FETCH_ALLOW_HOSTS: z.string().default("").transform((text) =>
    text.split(",").map((entry) => entry.trim().toLowerCase()).filter(Boolean)
  ).pipe(z.array(z.string().regex(HOST_ENTRY, "each entry must be host or host:port"))),
  // Alert webhooks and Slack URLs may reach private addresses and use http: (docs/decisions.md
  // "Alerts"): intranets and tests only.
  ALERT_ALLOW_PRIVATE_TARGETS: z.enum(["true", "false"]).default("false"),
  DATABASE_POOL_MAX: positiveInt(10),
  DATABASE_CONNECT_TIMEOUT_MS: positiveInt(3000),
  DATABASE_STATEMENT_TIMEOUT_MS: positiveInt(15000),
  INGEST_DATABASE_BUDGET_MS: positiveInt(4000),
  DASHBOARD_DATABASE_BUDGET_MS: positiveInt(15000),
  // Ingest requests handled at once; the rest wait once their body is in (api/ingest/admission.ts).
  INGEST_CONCURRENCY: positiveInt(4),
  // Workers that decode large ingest bodies off the main thread; 0 decodes them on it.
  INGEST_DECODE_WORKERS: z.coerce.number().int().min(0).max(16).default(2),
  SHUTDOWN_GRACE_MS: positiveInt(5000),
  // Slow clients (serve.ts, http/body.ts): a head within 10 s; a body within 30 s, which a 500 KB
  // gzipped SDK batch meets at 140 kbit/s (a 408 is retried by the SDK, nothing is lost).
  HTTP_HEADER_TIMEOUT_MS: positiveInt(10000),
  HTTP_BODY_TIMEOUT_MS: positiveInt(30000),
  // A connection with nothing read or written for this long is closed (serve.ts): a client that
  // stops reading an answer. Above every database budget and the statement timeout.
  HTTP_IDLE_TIMEOUT_MS: positiveInt(60000),
  // How often live dashboard parts (online dots, "online now") ask again; tests shorten it.
  DASHBOARD_LIVE_REFRESH_MS: positiveInt(20000),
  // Recordings in S3-compatible object storage, in the AWS SDKs' own variable names.
  EVENTS_STORE: z.string().regex(
    /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[A-Za-z0-9!_.*'()\/-]*)?$/,
    "must be s3://bucket or s3://bucket/prefix",
  ).optional(),
  AWS_ACCESS_KEY_ID: optionalText,
  AWS_SECRET_ACCESS_KEY: optionalText,
  AWS_REGION: z.string().trim().min(1).default("us-east-1"),
  AWS_ENDPOINT_URL_S3: optionalUrl,
  EVENTS_STORE_FLUSH_MS: positiveInt(10_000),
  EVENTS_STORE_FLUSH_BYTES: positiveInt(32 * 1024 * 1024),
  EVENTS_STORE_TIMEOUT_MS: positiveInt(10_000),
  // The key that wraps each session's data key (docs/decisions.md "Recordings in an object
  // store"): required in production with EVENTS_STORE; the previous ones still unwrap (rotation).
  EVENTS_STORE_KEY: storeKey.optional(),
  EVENTS_STORE_KEY_PREVIOUS: z.string().default("").transform((text) =>
    text.split(",").map((entry) => entry.trim()).filter(Boolean)
  ).pipe(z.array(storeKey)),
  // One upload in this many is read back and opened before it is committed.
  EVENTS_STORE_CHECK_EVERY: positiveInt(16),
});

/** The parsed environment, before the rules that span several variables. */
export type Env = z.infer<typeof envSchema>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Blank variables count as unset; every invalid one is named in one ConfigError. */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.infer<S> {
  const blankToUndefined = Object.fromEntries(
    Object.entries(env).map(([k, v]) => [k, v === "" ? undefined : v]),
  );
  const parsed = schema.safeParse(blankToUndefined);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`),
    );
  }
  return parsed.data;
}

/** A URL without its trailing slashes. */
export function stripSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
