// The heatmaps' schedule: every instance registers a job each minute that derives the due sessions
// (./derive.ts); the queue's claims keep two instances from deriving the same session at once.
/// <reference lib="deno.unstable" />
import type { AppDeps } from "@/core/deps.ts";
import { log } from "@/log.ts";
import type { CronRegistrar } from "@/core/service/cleanup_schedule.ts";
import { deriveHeatmaps, RUN_BUDGET_MS, SESSIONS_PER_RUN } from "./derive.ts";

export const HEATMAPS_SCHEDULE = "* * * * *";

type Deps = Pick<AppDeps, "db"> & Partial<Pick<AppDeps, "store" | "opens" | "workers">>;

export function scheduleHeatmaps(
  deps: Deps,
  register: CronRegistrar | undefined = typeof Deno.cron === "function" ? Deno.cron : undefined,
): void {
  if (!register) return;
  register("heatmaps", HEATMAPS_SCHEDULE, async () => {
    try {
      const done = await deriveHeatmaps(deps, new Date(), SESSIONS_PER_RUN, RUN_BUDGET_MS);
      if (done.sessions || done.failed) log.info("cron:heatmaps:ok", { ...done });
    } catch (error) {
      log.error("cron:heatmaps:failed", {
        error: error instanceof Error ? error.stack : String(error),
      });
    }
  });
}
