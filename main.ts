// Production entry: configuration → database → migrations → app → serve.ts (node:http).
/// <reference lib="deno.unstable" />
import { join } from "node:path";
import { createPageHandler, createStaticHandler } from "$fresh/server.ts";
import { sdkAssets } from "./api/service/sdk_assets.ts";
import { createApp } from "./app.ts";
import { createDeps, VERSION } from "./core/deps.ts";
import { type Config, loadConfig } from "./config.ts";
import { ConfigError } from "@/config/env.ts";
import { databaseTarget, openDb } from "./db/client.ts";
import { containDriverFaults } from "./db/driver_fault.ts";
import { ensurePlayground } from "./core/service/playground.ts";
import { withDevSecret } from "./core/auth/dev_secret.ts";
import { scheduleCleanup } from "./core/service/cleanup_schedule.ts";
import { scheduleAlerts } from "./core/alerts/schedule.ts";
import { scheduleHeatmaps } from "./core/heatmaps/schedule.ts";
import { startOffloader } from "./core/storage/offload.ts";
import { migrateToLatest, migrationLevel, pendingMigrations } from "./db/migrator.ts";
import { resolveConfig } from "./fresh/config.ts";
import freshConfig from "./fresh.config.ts";
import manifest from "./fresh.gen.ts";
import { log, say, setupLogging } from "./log.ts";
import { setupMonitoring } from "./monitoring.ts";
import { serve } from "./serve.ts";

const loaded = loadConfigOrExit();
await setupLogging(loaded.logLevel, [], { plainLines: loaded.nodeEnv === "development" });
const config = await withDevSecret(loaded);
await setupMonitoring(config);

containDriverFaults();
const target = databaseTarget(config.databaseUrl, config.dataDir);
const db = await openDb(
  target.kind === "postgres"
    ? {
      ...target,
      max: config.database.poolMax,
      connectTimeoutMs: config.database.connectTimeoutMs,
      statementTimeoutMs: config.database.statementTimeoutMs,
    }
    : target,
);
await ensureMigrated(config);
const dev = config.nodeEnv === "development";
const deps = createDeps(config, db);
const playground = await ensurePlayground(deps);
if (playground) {
  log.info("dev:project:ready", { project: playground.name, key: playground.key });
  say(`Playground project key: ${playground.key}`);
}
const { staticDir, buildDir, basePath } = resolveConfig(freshConfig, import.meta.url);
const app = createApp(deps, {
  staticFiles: createStaticHandler({ staticDir, buildDir, basePath, dev }),
  mounts: [sdkAssets({ dir: join(buildDir, "sdk"), reload: dev })],
  pages: await createPageHandler(manifest, {
    staticDir,
    buildDir,
    basePath,
    dev,
    onError: (error, req) =>
      log.error("page:render:failed", { url: req.url, error: String(error) }),
  }),
});

// serve.ts, not Deno.serve: it closes connections whose head, body or keep-alive idles too long.
const server = await serve((req, info) => app.fetch(req, info), {
  port: config.port,
  headerTimeoutMs: config.http.headerTimeoutMs,
  bodyTimeoutMs: config.http.bodyTimeoutMs,
  idleTimeoutMs: config.http.idleTimeoutMs,
});
{
  const { hostname, port } = server.addr;
  log.info("server:listen:ok", {
    version: VERSION,
    database: db.kind,
    url: `http://${hostname === "0.0.0.0" ? "localhost" : hostname}:${port}`,
    appUrl: config.appUrl,
    eventsStore: config.eventsStore
      ? `s3://${config.eventsStore.bucket}/${config.eventsStore.prefix}`
      : "off",
  });
}

scheduleCleanup(deps);
scheduleAlerts(deps);
scheduleHeatmaps(deps);
// Every instance offloads; claims keep two from packing the same batch (core/storage/offload.ts).
const offloader = deps.store ? startOffloader({ db, store: deps.store }) : null;

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  Deno.addSignalListener(signal, async () => {
    // Bounded: requests stuck on a database that went away must not hold a deploy.
    const grace = config.http.shutdownGraceMs;
    const timer = setTimeout(() => {
      log.warn("server:shutdown:forced", { graceMs: grace });
      exitProcess();
    }, grace);
    log.info("server:shutdown:start", { signal, graceMs: grace });
    await server.shutdown();
    await offloader?.stop();
    deps.close();
    await deps.lastUsed.settle();
    await db.close();
    clearTimeout(timer);
    exitProcess();
  });
}

/**
 * Ends the process. Under `deno task dev`'s --watch, Deno.exit ends only the watched script: the
 * watcher (and esbuild, its child) would wait for the next file change, so development ends the
 * whole process once the server has shut down cleanly.
 */
function exitProcess(): never {
  if (dev) Deno.kill(Deno.pid, "SIGKILL");
  Deno.exit(0);
}

function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    Deno.exit(1);
  }
}

/** Development and the embedded database migrate at start; production only checks the level. */
async function ensureMigrated(config: Config): Promise<void> {
  if (config.nodeEnv !== "production" || db.kind === "pglite") {
    const applied = await migrateToLatest(db.kysely);
    if (applied.length) log.info("db:migrate:ok", { applied });
    return;
  }
  const pending = await pendingMigrations(db.kysely);
  if (pending.length) {
    const level = await migrationLevel(db.kysely);
    log.fatal("db:migrate:pending", { level, pending });
    console.error(`Database is at ${level ?? "no migration"}; run \`deno task db:migrate\`.`);
    Deno.exit(1);
  }
}
