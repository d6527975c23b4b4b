// /api/cron: the daily cleanup (docs/decisions.md "Cleanup") and the alerts' minute ("Alerts")
// for external schedulers. Bearer CRON_SECRET when it is configured; a mismatch is 401 before any
// work. The scheduled runs (core/service/cleanup_schedule.ts, core/alerts/schedule.ts, registered
// by main.ts) call the same functions.
import { Hono, type MiddlewareHandler } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { runCleanup } from "@/core/service/cleanup.ts";
import { authError } from "@/core/errors.ts";
import { log } from "@/log.ts";
import { cleanupResult } from "@/core/service/schema.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe } from "@/api/openapi/route.ts";
import { bearerToken, sameSecret } from "./bearer.ts";
import { runAlerts } from "@/core/alerts/schedule.ts";
import { alertsRunResult } from "@/core/alerts/schema.ts";

/** Refuses the request unless it carries `Bearer <secret>`; lets everything through when unset. */
function cronSecret(secret: string | undefined): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (secret) {
      if (!sameSecret(bearerToken(c.req.header("authorization")), secret)) {
        log.warn("cron:cleanup:unauthorized", { requestId: c.var.requestId });
        throw authError("invalid cron secret");
      }
    }
    await next();
  };
}

export function cronRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get(
    "/daily-cleanup",
    describe({
      summary: "Run the daily cleanup now",
      description: "Deletes expired and answered invites, sessions older than 7 days, tracked " +
        "users without sessions and organizations without members. Main also runs it at 03:30 UTC.",
      tag: "service",
      auth: "bearer",
      responses: { 200: { description: "rows deleted by each sweep", body: cleanupResult } },
    }),
    noStore(),
    cronSecret(deps.config.cronSecret),
    async (c) => {
      const result = await deps.metrics.cleanup(runCleanup(deps, new Date(), { trigger: "http" }));
      const { skipped, ...counts } = result;
      return c.json({ ...counts, skipped });
    },
  );

  app.post(
    "/alerts",
    describe({
      summary: "Evaluate the alert rules and send due deliveries now",
      description: "Each rule not yet evaluated this minute is evaluated once across instances; " +
        "then the outbox's due deliveries are sent. Main also runs it every minute.",
      tag: "service",
      auth: "bearer",
      responses: { 200: { description: "what the run did", body: alertsRunResult } },
    }),
    noStore(),
    cronSecret(deps.config.cronSecret),
    async (c) => c.json(await runAlerts(deps)),
  );

  return app;
}
