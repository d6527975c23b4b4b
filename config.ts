// The service's configuration, read once from the environment and validated as a whole, so a
// bad deployment fails at startup with one message that names every problem.
import { type EventsStoreConfig, eventsStoreConfig } from "@/config/events_store.ts";
import {
  ConfigError,
  envSchema,
  type LogLevel,
  type NodeEnv,
  parseEnv,
  stripSlash,
} from "@/config/env.ts";
import { crossFieldRules } from "@/config/rules.ts";

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
  /** Bearer token of GET /metrics; undefined turns the endpoint off. */
  metricsToken: string | undefined;
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
  /** Hosts (`host` or `host:port`) an export fetches images from though private. */
  exportFetchAllowHosts: string[];
  /** Alert targets may be private addresses and http: (ALERT_ALLOW_PRIVATE_TARGETS). */
  alertAllowPrivateTargets: boolean;
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
    metricsToken: e.METRICS_TOKEN,
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
    exportFetchAllowHosts: e.EXPORT_FETCH_ALLOW_HOSTS,
    alertAllowPrivateTargets: e.ALERT_ALLOW_PRIVATE_TARGETS === "true",
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

function defaultLogLevel(nodeEnv: NodeEnv): LogLevel {
  return nodeEnv === "production" ? "info" : nodeEnv === "test" ? "silent" : "debug";
}
