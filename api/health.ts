// GET /api/health: the service is up and its database answers.
import { Hono } from "hono";
import { sql } from "kysely";
import type { AppDeps } from "../app_deps.ts";
import { log } from "../log.ts";
import type { ApiEnv } from "./env.ts";

export function healthRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get("/health", async (c) => {
    c.header("Cache-Control", "no-store");
    try {
      await sql`SELECT 1`.execute(deps.db.kysely);
      const status = await deps.status();
      return c.json({ status: "ok", database: "ok", ...status });
    } catch (error) {
      log.error("health:database:failed", { error: String(error) });
      return c.json({ kind: "unavailable", message: "database unavailable" }, 503);
    }
  });
  return app;
}
