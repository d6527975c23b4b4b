// /api/cron: the daily cleanup for external schedulers (spec §4/§5). Bearer CRON_SECRET when it
// is configured; a mismatch is 401 before any work. Deno.cron in main.ts calls the same function.
import { createHash, timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { runCleanup } from "../core/cleanup.ts";
import { authError } from "../core/errors.ts";
import { log } from "../log.ts";
import type { ApiEnv } from "./env.ts";

/** Compares digests so the time taken says nothing about how much of the secret matched. */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

export function cronRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get("/daily-cleanup", async (c) => {
    const secret = deps.config.cronSecret;
    if (secret) {
      const header = c.req.header("authorization") ?? "";
      const token = header.startsWith("Bearer ") ? header.slice("Bearer ".length) : "";
      if (!sameSecret(token, secret)) {
        log.warn("cron:cleanup:unauthorized", { requestId: c.var.requestId });
        throw authError("invalid cron secret");
      }
    }
    const { skipped, ...counts } = await runCleanup(deps, new Date(), { trigger: "http" });
    return c.json({ ...counts, skipped }, 200, { "Cache-Control": "no-store" });
  });

  return app;
}
