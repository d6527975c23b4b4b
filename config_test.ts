import assert from "node:assert/strict";
import { loadConfig, loadDatabaseConfig, primaryMethodsConfigured } from "./config.ts";
import { ConfigError } from "@/config/env.ts";

const DEV = { NODE_ENV: "development" };

Deno.test("config: defaults for a bare development environment", () => {
  const config = loadConfig(DEV);
  assert.equal(config.nodeEnv, "development");
  assert.equal(config.port, 3000);
  assert.equal(config.appUrl, "http://localhost:3000");
  assert.equal(config.authUrl, "http://localhost:3000");
  assert.equal(config.databaseUrl, null);
  assert.equal(config.dataDir, ".data");
  assert.equal(config.logLevel, "debug");
  assert.equal(config.mail, null);
  assert.equal(primaryMethodsConfigured(config), false);
  // An export holds at most 100 MiB of stored events unless EXPORT_MAX_BYTES says otherwise.
  assert.equal(config.limits.exportMaxBytes, 100 * 1024 * 1024);
  assert.equal(loadConfig({ ...DEV, EXPORT_MAX_BYTES: "1024" }).limits.exportMaxBytes, 1024);
});

Deno.test("config: EXPORT_FETCH_ALLOW_HOSTS is none by default, else a list of host or host:port", () => {
  assert.deepEqual(loadConfig(DEV).exportFetchAllowHosts, []);
  assert.deepEqual(
    loadConfig({ ...DEV, EXPORT_FETCH_ALLOW_HOSTS: " 127.0.0.1:8080, Images.LAN ,[::1]:9000," })
      .exportFetchAllowHosts,
    ["127.0.0.1:8080", "images.lan", "[::1]:9000"],
  );
  for (const bad of ["http://images.lan", "images.lan/path", "a b"]) {
    assert.throws(
      () => loadConfig({ ...DEV, EXPORT_FETCH_ALLOW_HOSTS: bad }),
      (e) => e instanceof ConfigError && /EXPORT_FETCH_ALLOW_HOSTS/.test(e.message),
      bad,
    );
  }
});

Deno.test("config: APP_URL falls back to AUTH_URL, then PLATFORM_URL, then localhost", () => {
  assert.equal(
    loadConfig({ ...DEV, APP_URL: "https://a.test/", PLATFORM_URL: "https://b.test" }).appUrl,
    "https://a.test",
  );
  const auth = loadConfig({ ...DEV, AUTH_URL: "https://c.test/", PLATFORM_URL: "https://b.test" });
  assert.equal(auth.appUrl, "https://c.test");
  assert.equal(auth.authUrl, "https://c.test");
  assert.equal(loadConfig({ ...DEV, PLATFORM_URL: "https://b.test" }).appUrl, "https://b.test");
  assert.equal(loadConfig({ ...DEV, PORT: "8080" }).appUrl, "http://localhost:8080");
});

Deno.test("config: LOG_LEVEL defaults per NODE_ENV and can be set", () => {
  assert.equal(loadConfig({ NODE_ENV: "test" }).logLevel, "silent");
  assert.equal(
    loadConfig({ ...PRODUCTION, MAIL_USER: "bot@x.test", MAIL_APP_PASSWORD: "pw" }).logLevel,
    "info",
  );
  assert.equal(loadConfig({ ...DEV, LOG_LEVEL: "warn" }).logLevel, "warn");
});

Deno.test("config: migrations use DATABASE_URL_UNPOOLED, falling back to DATABASE_URL", () => {
  const pooled = "postgres://pool.test/db";
  assert.equal(loadConfig({ ...DEV, DATABASE_URL: pooled }).migrationDatabaseUrl, pooled);
  assert.equal(
    loadConfig({ ...DEV, DATABASE_URL: pooled, DATABASE_URL_UNPOOLED: "postgres://direct.test/db" })
      .migrationDatabaseUrl,
    "postgres://direct.test/db",
  );
});

Deno.test("config: a sign-in pair is enabled only when complete", () => {
  const config = loadConfig({ ...DEV, MAIL_USER: "bot@x.test", MAIL_APP_PASSWORD: "pw" });
  assert.deepEqual(config.mail, {
    user: "bot@x.test",
    password: "pw",
    host: "smtp.gmail.com",
    port: 465,
    from: "bot@x.test",
  });
  assert.equal(primaryMethodsConfigured(config), true);
});

Deno.test("config: one error names every problem at once", () => {
  let error: unknown;
  try {
    loadConfig({
      NODE_ENV: "staging",
      PORT: "http",
      LOG_LEVEL: "loud",
      APP_URL: "not a url",
      DATABASE_URL: "mysql://x",
    });
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ConfigError);
  assert.equal(error.problems.length, 5);
  const problems = error.problems.join("\n");
  for (const name of ["NODE_ENV", "PORT", "LOG_LEVEL", "APP_URL", "DATABASE_URL"]) {
    assert.match(problems, new RegExp(name));
  }
});

Deno.test("config: cross-variable rules are reported together", () => {
  let error: unknown;
  try {
    loadConfig({ NODE_ENV: "production", MAIL_USER: "bot@x.test", AUTH_OAUTH_B_SECRET: "s" });
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof ConfigError);
  assert.deepEqual(error.problems.sort(), [
    "APP_URL (or AUTH_URL or PLATFORM_URL) is required in production",
    "AUTH_OAUTH_B_ID and AUTH_OAUTH_B_SECRET must be set together",
    "AUTH_SECRET is required in production",
    "DATABASE_URL is required in production",
    "MAIL_USER and MAIL_APP_PASSWORD must be set together",
    "no primary sign-in method is configured: set AUTH_OAUTH_A_ID + AUTH_OAUTH_A_SECRET, " +
    "or AUTH_OAUTH_B_ID + AUTH_OAUTH_B_SECRET, or MAIL_USER + MAIL_APP_PASSWORD",
  ]);
});

// A production environment with everything but the sign-in methods.
const PRODUCTION = {
  NODE_ENV: "production",
  AUTH_SECRET: "Vd0pK3n9yQ2mX7rB4tL8wE1sZ6uH5cJa",
  DATABASE_URL: "postgres://h/db",
  APP_URL: "https://app.test",
};

Deno.test("config: production fails to start without a primary sign-in method", () => {
  assert.throws(() => loadConfig(PRODUCTION), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.equal(error.problems.length, 1);
    assert.match(error.problems[0], /^no primary sign-in method is configured/);
    return true;
  });
  // A lone half of a pair does not count either.
  assert.throws(() => loadConfig({ ...PRODUCTION, AUTH_OAUTH_A_ID: "id" }), ConfigError);
});

Deno.test("config: any one complete pair is enough in production", () => {
  for (
    const pair of [
      { AUTH_OAUTH_A_ID: "id", AUTH_OAUTH_A_SECRET: "s" },
      { AUTH_OAUTH_B_ID: "id", AUTH_OAUTH_B_SECRET: "s" },
      { MAIL_USER: "bot@x.test", MAIL_APP_PASSWORD: "pw" },
    ]
  ) {
    const config = loadConfig({ ...PRODUCTION, ...pair });
    assert.equal(primaryMethodsConfigured(config), true);
  }
});

Deno.test("config: development and test start without any sign-in method", () => {
  assert.equal(primaryMethodsConfigured(loadConfig({ NODE_ENV: "development" })), false);
  assert.equal(primaryMethodsConfigured(loadConfig({ NODE_ENV: "test" })), false);
});

Deno.test("config: with no NODE_ENV the production rules apply and name every missing variable", () => {
  assert.throws(() => loadConfig({}), (error: unknown) => {
    assert.ok(error instanceof ConfigError);
    assert.deepEqual(error.problems.sort(), [
      "APP_URL (or AUTH_URL or PLATFORM_URL) is required in production",
      "AUTH_SECRET is required in production",
      "DATABASE_URL is required in production",
      "no primary sign-in method is configured: set AUTH_OAUTH_A_ID + AUTH_OAUTH_A_SECRET, " +
      "or AUTH_OAUTH_B_ID + AUTH_OAUTH_B_SECRET, or MAIL_USER + MAIL_APP_PASSWORD",
    ]);
    // One message carries them all, as main.ts prints it.
    for (const name of ["APP_URL", "AUTH_SECRET", "DATABASE_URL", "MAIL_USER"]) {
      assert.match(error.message, new RegExp(name));
    }
    return true;
  });
  const { NODE_ENV: _, ...unsetEnv } = PRODUCTION;
  const config = loadConfig({ ...unsetEnv, MAIL_USER: "bot@x.test", MAIL_APP_PASSWORD: "pw" });
  assert.equal(config.nodeEnv, "production");
});

Deno.test("config: AUTH_URL or PLATFORM_URL stands in for APP_URL in production", () => {
  const { APP_URL: _, ...rest } = PRODUCTION;
  const pair = { MAIL_USER: "bot@x.test", MAIL_APP_PASSWORD: "pw" };
  const onlyAuth = loadConfig({ ...rest, ...pair, AUTH_URL: "https://a.test" });
  assert.equal(onlyAuth.authUrl, "https://a.test");
  // The dashboard's own URL too: same-origin checks, invite links and the snippet use it.
  assert.equal(onlyAuth.appUrl, "https://a.test");
  assert.equal(
    loadConfig({ ...rest, ...pair, PLATFORM_URL: "https://p.test" }).appUrl,
    "https://p.test",
  );
});

Deno.test("config: the migration task reads only the database settings", () => {
  assert.deepEqual(loadDatabaseConfig({}), {
    databaseUrl: null,
    migrationDatabaseUrl: null,
    dataDir: ".data",
  });
  assert.equal(
    loadDatabaseConfig({ DATABASE_URL: "postgres://h/db", NODE_ENV: "production" })
      .migrationDatabaseUrl,
    "postgres://h/db",
  );
  assert.throws(() => loadDatabaseConfig({ DATABASE_URL: "mysql://x" }), ConfigError);
});

Deno.test("config: HTTP timeouts default to 10 s for heads, 30 s for bodies and 60 s idle, and must be positive", () => {
  assert.deepEqual(loadConfig(DEV).http, {
    headerTimeoutMs: 10_000,
    bodyTimeoutMs: 30_000,
    idleTimeoutMs: 60_000,
    shutdownGraceMs: 5_000,
  });
  const set = loadConfig({ ...DEV, HTTP_HEADER_TIMEOUT_MS: "300", HTTP_BODY_TIMEOUT_MS: "500" });
  assert.equal(set.http.headerTimeoutMs, 300);
  assert.equal(set.http.bodyTimeoutMs, 500);
  assert.throws(
    () => loadConfig({ ...DEV, HTTP_HEADER_TIMEOUT_MS: "0", HTTP_BODY_TIMEOUT_MS: "soon" }),
    (error: unknown) =>
      error instanceof ConfigError && error.problems.length === 2 &&
      /HTTP_HEADER_TIMEOUT_MS/.test(error.problems[0]) &&
      /HTTP_BODY_TIMEOUT_MS/.test(error.problems[1]),
  );
});

Deno.test("config: production refuses a short or placeholder AUTH_SECRET, naming the variable", () => {
  const pair = { MAIL_USER: "bot@x.test", MAIL_APP_PASSWORD: "pw" };
  for (
    const secret of [
      "changeme",
      "secret",
      "...", // the README's example
      "s3cret-but-only-twenty", // short
      "Vd0pK3n9yQ2mX7rB4tL8wE1sZ6uH5cJ", // 31 characters
      "changeme".repeat(4), // a placeholder stretched to 32
      "CHANGE-ME-change-me-CHANGE-ME-changeme",
      "your-secret-here-your-secret-here",
      "x".repeat(40),
      "abababababababababababababababab",
    ]
  ) {
    assert.throws(() => loadConfig({ ...PRODUCTION, ...pair, AUTH_SECRET: secret }), (error) => {
      assert.ok(error instanceof ConfigError, secret);
      assert.equal(error.problems.length, 1, secret);
      assert.match(error.problems[0], /^AUTH_SECRET is too weak for production/, secret);
      // The secret itself is never printed.
      assert.ok(!error.message.includes(secret), secret);
      return true;
    });
  }
  // 32 random characters (hex from `openssl rand -hex 16` too) pass; development takes anything.
  for (const secret of [PRODUCTION.AUTH_SECRET, "9f86d081884c7d659a2feaa0c55ad015"]) {
    assert.equal(loadConfig({ ...PRODUCTION, ...pair, AUTH_SECRET: secret }).authSecret, secret);
  }
  assert.equal(loadConfig({ ...DEV, AUTH_SECRET: "changeme" }).authSecret, "changeme");
});

Deno.test("config: METRICS_TOKEN is optional, and production refuses a weak one", () => {
  const pair = { MAIL_USER: "bot@x.test", MAIL_APP_PASSWORD: "pw" };
  assert.equal(loadConfig({ ...PRODUCTION, ...pair }).metricsToken, undefined);
  for (const token of ["changeme", "metrics", "Vd0pK3n9yQ2mX7rB4tL8wE1sZ6uH5cJ", "z".repeat(40)]) {
    assert.throws(() => loadConfig({ ...PRODUCTION, ...pair, METRICS_TOKEN: token }), (error) => {
      assert.ok(error instanceof ConfigError, token);
      assert.deepEqual(error.problems.length, 1, token);
      assert.match(error.problems[0], /^METRICS_TOKEN is too weak for production/, token);
      assert.ok(!error.message.includes(token), token);
      return true;
    });
  }
  const strong = "Qm7xT2vN9pL4kR8sW1cY6bH3jF5dG0zA";
  assert.equal(loadConfig({ ...PRODUCTION, ...pair, METRICS_TOKEN: strong }).metricsToken, strong);
  assert.equal(loadConfig({ ...DEV, METRICS_TOKEN: "dev" }).metricsToken, "dev");
});

Deno.test("config: EVENTS_STORE turns the object store on, in the AWS SDKs' variable names", () => {
  assert.equal(loadConfig(DEV).eventsStore, null);
  const keys = { AWS_ACCESS_KEY_ID: "ak", AWS_SECRET_ACCESS_KEY: "sk" };
  const custom = loadConfig({
    ...DEV,
    ...keys,
    EVENTS_STORE: "s3://rec-bucket/playhead/events/",
    AWS_ENDPOINT_URL_S3: "http://127.0.0.1:7480/",
    AWS_REGION: "eu-west-3",
  }).eventsStore!;
  assert.equal(custom.bucket, "rec-bucket");
  assert.equal(custom.prefix, "playhead/events");
  assert.equal(custom.bucketUrl, "http://127.0.0.1:7480/rec-bucket"); // path-style
  assert.equal(custom.region, "eu-west-3");
  assert.equal(custom.flushMs, 10_000);
  assert.equal(custom.flushBytes, 32 * 1024 * 1024);
  const aws = loadConfig({ ...DEV, ...keys, EVENTS_STORE: "s3://rec-bucket" }).eventsStore!;
  assert.equal(aws.prefix, "");
  assert.equal(aws.bucketUrl, "https://rec-bucket.s3.us-east-1.amazonaws.com");

  assert.throws(
    () => loadConfig({ ...DEV, EVENTS_STORE: "s3://rec-bucket", EVENTS_STORE_FLUSH_MS: "0" }),
    (error: ConfigError) => error.problems.some((p) => p.startsWith("EVENTS_STORE_FLUSH_MS")),
  );
  assert.throws(
    () => loadConfig({ ...DEV, EVENTS_STORE: "s3://rec-bucket" }),
    (error: ConfigError) =>
      error.problems.includes("EVENTS_STORE needs AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY"),
  );
  assert.throws(
    () => loadConfig({ ...DEV, ...keys, EVENTS_STORE: "https://rec-bucket" }),
    (error: ConfigError) => error.problems.some((p) => p.startsWith("EVENTS_STORE:")),
  );
});
