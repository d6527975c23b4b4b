// The daily cleanup's schedule: every instance registers it at 03:30 UTC and the first to claim
// the day sweeps (docs/decisions.md "Cleanup"); GET /api/cron/daily-cleanup is the way in without.
/// <reference lib="deno.unstable" />
import type { AppDeps } from "@/core/deps.ts";
import { log } from "@/log.ts";
import { runCleanup } from "./cleanup.ts";

export const CLEANUP_SCHEDULE = "30 3 * * *";

/** Deno.cron's shape; tests pass their own to fire the job when they choose. */
export type CronRegistrar = (
  name: string,
  schedule: string,
  handler: () => Promise<void>,
) => unknown;

export function scheduleCleanup(
  deps: AppDeps,
  register: CronRegistrar | undefined = typeof Deno.cron === "function" ? Deno.cron : undefined,
): void {
  if (deps.config.nodeEnv === "production" && !deps.config.cronSecret) {
    log.warn("cron:cleanup:open", {
      reason: "CRON_SECRET is not set; /api/cron is unauthenticated",
    });
  }
  if (!register) {
    log.warn("cron:cleanup:unscheduled", { reason: "Deno.cron is unavailable (--unstable-cron)" });
    return;
  }
  register("daily-cleanup", CLEANUP_SCHEDULE, async () => {
    try {
      await deps.metrics.cleanup(runCleanup(deps, new Date(), { trigger: "cron" }));
    } catch (error) {
      log.error("cron:cleanup:failed", {
        error: error instanceof Error ? error.stack : String(error),
      });
    }
  });
}
