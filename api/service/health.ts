// GET /api/health: the service is up and its database answers.
import { Hono } from "hono";
import { sql } from "kysely";
import type { AppDeps } from "../../core/deps.ts";
import { unavailable } from "../../core/errors.ts";
import { health } from "../../core/service/schema.ts";
import { log } from "../../log.ts";
import type { ApiEnv } from "../env.ts";
import { RETRY_AFTER_SECONDS } from "../database_budget.ts";
import { noStore } from "../no_store.ts";
import { describe } from "../openapi/route.ts";

export function healthRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get(
    "/health",
    describe({
      summary: "The service is up and its database answers",
      tag: "service",
      auth: "none",
      responses: { 200: { description: "healthy", body: health } },
      errors: [503],
    }),
    noStore(),
    async (c) =>
      c.json({
        status: "ok",
        database: "ok",
        ...await databaseStatus(deps),
        // Cached from the store's last requests: never a request per health check.
        store: deps.store?.status() ?? "off",
      }),
  );
  return app;
}

/** The service status, read from a database that answers; 503 when it does not. */
async function databaseStatus(deps: AppDeps) {
  try {
    // Bounded like ingest: a database that does not answer is reported down, not waited for.
    return await withinMs(deps.config.database.ingestBudgetMs, async () => {
      await sql`SELECT 1`.execute(deps.db.kysely);
      return await deps.status();
    });
  } catch (error) {
    log.error("health:database:failed", { error: String(error) });
    throw unavailable("database unavailable", RETRY_AFTER_SECONDS);
  }
}

function withinMs<T>(ms: number, work: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work(), expired]).finally(() => clearTimeout(timer));
}
