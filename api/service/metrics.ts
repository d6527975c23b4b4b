// GET /metrics: the app's Prometheus metrics in the text exposition format (README "Metrics"),
// for a scraper holding `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN the route
// does not exist (404); a missing or wrong token is 401 before anything is read.
import { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { log } from "@/log.ts";
import { bearerToken, sameSecret } from "./bearer.ts";

export function metricsRoutes(deps: AppDeps): Hono<{ Variables: { requestId: string } }> {
  const app = new Hono<{ Variables: { requestId: string } }>();
  const token = deps.config.metricsToken;
  if (!token) return app;
  app.get("/metrics", async (c) => {
    if (!sameSecret(bearerToken(c.req.header("authorization")), token)) {
      log.warn("metrics:scrape:unauthorized", { requestId: c.var.requestId });
      const headers = { "WWW-Authenticate": "Bearer", "Cache-Control": "no-store" };
      return c.text("unauthorized\n", 401, headers);
    }
    const { text, contentType } = await deps.metrics.scrape();
    return c.body(text, 200, { "Content-Type": contentType, "Cache-Control": "no-store" });
  });
  return app;
}
