// The alerts' schedule (docs/decisions.md "Alerts"): every instance registers a job each minute;
// each rule is evaluated by the one instance that claims it for the minute
// (core/alerts/evaluate.ts), then the outbox's due deliveries are sent. POST /api/cron/alerts
// runs the same for external schedulers.
/// <reference lib="deno.unstable" />
import type { AppDeps } from "@/core/deps.ts";
import { log } from "@/log.ts";
import type { CronRegistrar } from "@/core/service/cleanup_schedule.ts";
import { evaluateAlerts } from "./evaluate.ts";
import { runDeliveries } from "./deliver.ts";
import { backfillAlertSignals } from "@/db/queries/alerts/backfill.ts";

export const ALERTS_SCHEDULE = "* * * * *";

type Deps = Pick<AppDeps, "db" | "config" | "authSecret" | "mailer">;

/** Markers rolled up per minute by the back-fill of migration 0039 (≈ 1 s at most). */
const BACKFILL = { chunk: 20_000, steps: 5 };

/** Back-fills the rollup a little further, evaluates the minute's rules, then sends what is due. */
export async function runAlerts(deps: Deps, now = new Date()) {
  await backfillAlertSignals(deps.db.kysely, BACKFILL);
  const evaluated = await evaluateAlerts(deps, now);
  const delivered = await runDeliveries(deps, now);
  return { ...evaluated, ...delivered };
}

export function scheduleAlerts(
  deps: Deps,
  register: CronRegistrar | undefined = typeof Deno.cron === "function" ? Deno.cron : undefined,
): void {
  if (!register) return;
  register("alerts", ALERTS_SCHEDULE, async () => {
    try {
      await runAlerts(deps);
    } catch (error) {
      log.error("cron:alerts:failed", {
        error: error instanceof Error ? error.stack : String(error),
      });
    }
  });
}
