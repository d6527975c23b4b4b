// The service's configuration, read once from the environment and validated as a whole, so a
// bad deployment fails at startup with one message that names every problem.
import { z } from "zod";

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type NodeEnv = "production" | "development" | "test";

const optionalText = z.string().trim().min(1).optional();
const optionalUrl = z.url().optional();
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const envSchema = z.object({
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
});

/** A pair of variables that enables one primary sign-in method only when both are set. */
const PRIMARY_METHOD_PAIRS = [
  ["AUTH_OAUTH_A_ID", "AUTH_OAUTH_A_SECRET"],
  ["AUTH_OAUTH_B_ID", "AUTH_OAUTH_B_SECRET"],
  ["MAIL_USER", "MAIL_APP_PASSWORD"],
] as const;

/**
 * A session cookie is an HS256 JWT, so anyone holding one can test guesses of the secret offline
 * (`changeme` once fell in 11 ms). Production takes only a long secret that is not a
 * placeholder; the reason is named, never the secret.
 */
export const MIN_SECRET_LENGTH = 32;
/** Placeholders seen in examples and templates (the README's is `...`), compared letters-only. */
const PLACEHOLDER_SECRETS = [
  "changeme",
  "changethis",
  "replaceme",
  "secret",
  "password",
  "authsecret",
  "yoursecret",
  "yoursecrethere",
  "supersecret",
  "mysecret",
  "example",
  "test",
  "default",
  "playhead",
  "xxx",
];

/** Why a production secret is refused, or "" when it is acceptable. */
export function weakSecret(secret: string): string {
  const letters = secret.toLowerCase().replace(/[^a-z0-9]/g, "");
  // A placeholder, or one repeated to pass the length (`changemechangeme…`), or only punctuation.
  const placeholder = letters === "" ||
    PLACEHOLDER_SECRETS.some((word) => letters.replaceAll(word, "") === "");
  if (placeholder) return "a placeholder";
  if (secret.length < MIN_SECRET_LENGTH) return `${secret.length} characters`;
  if (new Set(secret).size < 8) return "too few distinct characters";
  return "";
}

export interface Config {
  nodeEnv: NodeEnv;
  port: number;
  appUrl: string;
  authUrl: string;
  authSecret: string | undefined;
  oauthA: { id: string; secret: string; baseUrl: string; apiUrl: string } | null;
  oauthB: { id: string; secret: string; issuer: string } | null;
  mail:
    | { user: string; password: string; host: string; port: number; from: string }
    | null;
  cronSecret: string | undefined;
  /** null selects the embedded PGlite database. */
  databaseUrl: string | null;
  /** Connection used by migrations; falls back to databaseUrl. */
  migrationDatabaseUrl: string | null;
  dataDir: string;
  demoMode: boolean;
  monitoringDsn: string | undefined;
  logLevel: LogLevel;
  /** Take the client address from X-Forwarded-For (only behind a reverse proxy that sets it). */
  trustProxy: boolean;
  limits: {
    otpSendsPerAddressHourly: number;
    otpSendsHourly: number;
    passkeyOptionsPerAddressMinute: number;
    /** Stored event bytes past which a replay export answers 413. */
    exportMaxBytes: number;
  };
  database: {
    poolMax: number;
    connectTimeoutMs: number;
    statementTimeoutMs: number;
    /** How long ingest waits for the database before answering 503. */
    ingestBudgetMs: number;
    /** How long a dashboard request waits for the database before answering 503. */
    dashboardBudgetMs: number;
  };
  http: {
    headerTimeoutMs: number;
    bodyTimeoutMs: number;
    idleTimeoutMs: number;
    shutdownGraceMs: number;
  };
  /** Poll interval of the dashboard's live parts (heartbeats), in ms. */
  liveRefreshMs: number;
  /** Ingest requests handled at once; more wait for a turn once their body is in. */
  ingestConcurrency: number;
  /** Decode workers for large ingest bodies (api/ingest/decode_pool.ts); 0: none. */
  ingestDecodeWorkers: number;
  /** null keeps every recording in PostgreSQL (the default). */
  eventsStore: EventsStoreConfig | null;
}

/** EVENTS_STORE and the AWS_* variables: where offloaded batches go (core/storage/). */
export interface EventsStoreConfig {
  bucket: string;
  /** Key prefix without slashes at either end; "" for the bucket's root. */
  prefix: string;
  /** Path-style base URL of the bucket (custom endpoint), or AWS's virtual-hosted one. */
  bucketUrl: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A flush every this many ms, or sooner once this many bytes are staged. */
  flushMs: number;
  flushBytes: number;
  /** One store request's time limit: past it the store counts as down. */
  timeoutMs: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Rules that span several variables, reported together with the per-variable ones. */
export const crossFieldRules: Array<(env: z.infer<typeof envSchema>) => string[]> = [
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
  (env) =>
    env.EVENTS_STORE && !(env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY)
      ? ["EVENTS_STORE needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"]
      : [],
];

/** Parses an environment (defaults to the process's) into a Config, or throws ConfigError. */
export function loadConfig(env: Record<string, string | undefined> = Deno.env.toObject()): Config {
  const e = parseEnv(envSchema, env);
  const problems = crossFieldRules.flatMap((rule) => rule(e));
  if (problems.length) throw new ConfigError(problems);

  // One chain everywhere, the one the production check accepts: the dashboard's own URL, then the
  // OAuth callbacks' base, then the host's.
  const appUrl = stripSlash(
    e.APP_URL ?? e.AUTH_URL ?? e.PLATFORM_URL ?? `http://localhost:${e.PORT}`,
  );
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    appUrl,
    authUrl: stripSlash(e.AUTH_URL ?? appUrl),
    authSecret: e.AUTH_SECRET,
    oauthA: e.AUTH_OAUTH_A_ID && e.AUTH_OAUTH_A_SECRET
      ? {
        id: e.AUTH_OAUTH_A_ID,
        secret: e.AUTH_OAUTH_A_SECRET,
        baseUrl: stripSlash(e.AUTH_OAUTH_A_BASE_URL),
        apiUrl: stripSlash(e.AUTH_OAUTH_A_API_URL),
      }
      : null,
    oauthB: e.AUTH_OAUTH_B_ID && e.AUTH_OAUTH_B_SECRET
      ? { id: e.AUTH_OAUTH_B_ID, secret: e.AUTH_OAUTH_B_SECRET, issuer: e.AUTH_OAUTH_B_ISSUER }
      : null,
    mail: e.MAIL_USER && e.MAIL_APP_PASSWORD
      ? {
        user: e.MAIL_USER,
        password: e.MAIL_APP_PASSWORD,
        host: e.MAIL_HOST,
        port: e.MAIL_PORT,
        from: e.MAIL_FROM ?? e.MAIL_USER,
      }
      : null,
    cronSecret: e.CRON_SECRET,
    databaseUrl: e.DATABASE_URL ?? null,
    migrationDatabaseUrl: e.DATABASE_URL_UNPOOLED ?? e.DATABASE_URL ?? null,
    dataDir: e.DATA_DIR,
    demoMode: e.NEXT_PUBLIC_SERVICE_DEMO_MODE === "true",
    monitoringDsn: e.MONITORING_DSN,
    logLevel: e.LOG_LEVEL ?? defaultLogLevel(e.NODE_ENV),
    trustProxy: e.TRUST_PROXY === "true",
    limits: {
      otpSendsPerAddressHourly: e.OTP_SENDS_PER_ADDRESS_HOURLY,
      otpSendsHourly: e.OTP_SENDS_HOURLY,
      passkeyOptionsPerAddressMinute: e.PASSKEY_OPTIONS_PER_ADDRESS_MINUTE,
      exportMaxBytes: e.EXPORT_MAX_BYTES,
    },
    database: {
      poolMax: e.DATABASE_POOL_MAX,
      connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
      ingestBudgetMs: e.INGEST_DATABASE_BUDGET_MS,
      dashboardBudgetMs: e.DASHBOARD_DATABASE_BUDGET_MS,
    },
    http: {
      headerTimeoutMs: e.HTTP_HEADER_TIMEOUT_MS,
      bodyTimeoutMs: e.HTTP_BODY_TIMEOUT_MS,
      idleTimeoutMs: e.HTTP_IDLE_TIMEOUT_MS,
      shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    },
    liveRefreshMs: e.DASHBOARD_LIVE_REFRESH_MS,
    ingestConcurrency: e.INGEST_CONCURRENCY,
    ingestDecodeWorkers: e.INGEST_DECODE_WORKERS,
    eventsStore: eventsStoreConfig(e),
  };
}

function eventsStoreConfig(e: z.infer<typeof envSchema>): EventsStoreConfig | null {
  if (!e.EVENTS_STORE || !e.AWS_ACCESS_KEY_ID || !e.AWS_SECRET_ACCESS_KEY) return null;
  const [bucket, ...rest] = e.EVENTS_STORE.slice("s3://".length).split("/");
  const endpoint = e.AWS_ENDPOINT_URL_S3;
  return {
    bucket,
    prefix: rest.join("/").replace(/^\/+|\/+$/g, ""),
    // A custom endpoint (Ceph, MinIO, R2…) is addressed path-style; AWS itself virtual-hosted.
    bucketUrl: endpoint
      ? `${stripSlash(endpoint)}/${bucket}`
      : `https://${bucket}.s3.${e.AWS_REGION}.amazonaws.com`,
    region: e.AWS_REGION,
    accessKeyId: e.AWS_ACCESS_KEY_ID,
    secretAccessKey: e.AWS_SECRET_ACCESS_KEY,
    flushMs: e.EVENTS_STORE_FLUSH_MS,
    flushBytes: e.EVENTS_STORE_FLUSH_BYTES,
    timeoutMs: e.EVENTS_STORE_TIMEOUT_MS,
  };
}

/**
 * Only what `deno task db:migrate` needs: the database target. It needs no secret or sign-in
 * method, so it does not apply the production rules of loadConfig.
 */
export function loadDatabaseConfig(
  env: Record<string, string | undefined> = Deno.env.toObject(),
): Pick<Config, "databaseUrl" | "migrationDatabaseUrl" | "dataDir"> {
  const e = parseEnv(
    envSchema.pick({ DATABASE_URL: true, DATABASE_URL_UNPOOLED: true, DATA_DIR: true }),
    env,
  );
  return {
    databaseUrl: e.DATABASE_URL ?? null,
    migrationDatabaseUrl: e.DATABASE_URL_UNPOOLED ?? e.DATABASE_URL ?? null,
    dataDir: e.DATA_DIR,
  };
}

/** Whether at least one primary sign-in method (OAuth A, OAuth B, email code) is configured. */
export function primaryMethodsConfigured(config: Config): boolean {
  return Boolean(config.oauthA || config.oauthB || config.mail);
}

/** Blank variables count as unset; every invalid one is named in one ConfigError. */
function parseEnv<S extends z.ZodType>(
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

function defaultLogLevel(nodeEnv: NodeEnv): LogLevel {
  return nodeEnv === "production" ? "info" : nodeEnv === "test" ? "silent" : "debug";
}

function stripSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
