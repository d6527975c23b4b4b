// GET /api/health: the service is up and its database answers. Load balancers call it often and
// anyone may (1,000 parallel calls once took the pool from ingest and the dashboard), so it
// answers from one probe of the database at a time, reused for HEALTH_PROBE_TTL_MS.
import { Hono } from "hono";
import type { AppDeps, ServiceStatus } from "@/core/deps.ts";
import { unavailable } from "@/core/errors.ts";
import { health } from "@/core/service/schema.ts";
import { serviceStatus } from "@/core/service/health.ts";
import { log } from "@/log.ts";
import type { ApiEnv } from "@/api/env.ts";
import {
  RETRY_AFTER_SECONDS,
  startDatabaseBudget,
  withinDatabaseBudget,
} from "@/http/database_budget.ts";
import { noStore } from "@/api/no_store.ts";
import { describe } from "@/api/openapi/route.ts";

/** How long one probe's outcome (up or down) answers every health call. */
export const HEALTH_PROBE_TTL_MS = 1_000;

export function healthRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const probe = healthProbe(deps, HEALTH_PROBE_TTL_MS);
  app.get(
    "/health",
    describe({
      summary: "The service is up and its database answers",
      description: `The database is probed at most once per ${HEALTH_PROBE_TTL_MS} ms; calls ` +
        "in between share that probe's outcome.",
      tag: "service",
      auth: "none",
      responses: { 200: { description: "healthy", body: health } },
      errors: [503],
    }),
    noStore(),
    async (c) => {
      const status = await probe();
      if (!status) throw unavailable("database unavailable", RETRY_AFTER_SECONDS);
      return c.json({
        status: "ok",
        database: "ok",
        ...status,
        // Cached from the store's last requests: never a request per health check.
        store: deps.store?.status() ?? "off",
      });
    },
  );
  return app;
}

type Outcome = ServiceStatus | null;

/** A single-flight probe whose outcome (null: down) is reused for `ttlMs` after it settles. */
export function healthProbe(deps: AppDeps, ttlMs: number): () => Promise<Outcome> {
  let last: { outcome: Outcome; at: number } | null = null;
  let running: Promise<Outcome> | null = null;
  return () => {
    if (last && performance.now() - last.at < ttlMs) return Promise.resolve(last.outcome);
    running ??= databaseStatus(deps).then((outcome) => {
      last = { outcome, at: performance.now() };
      running = null;
      return outcome;
    });
    return running;
  };
}

/** The service status, read from a database that answers; null when it does not. */
async function databaseStatus(deps: AppDeps): Promise<Outcome> {
  try {
    // Bounded like ingest: a database that does not answer is reported down, not waited for.
    const budget = startDatabaseBudget(deps.config.database.ingestBudgetMs);
    // The probe's query may never settle (a connection the database dropped): past the budget its
    // connection share goes back, or every later probe would wait on it and health stay 503.
    return await withinDatabaseBudget(budget, () => serviceStatus(deps));
  } catch (error) {
    log.error("health:database:failed", { error: String(error) });
    return null;
  }
}
