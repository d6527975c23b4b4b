// Error monitoring through Sentry, active only when MONITORING_DSN is set; otherwise a no-op.
import type { Config } from "./config.ts";
import { log } from "./log.ts";

let capture: (error: unknown) => void = () => {};

export async function setupMonitoring(config: Config): Promise<void> {
  if (!config.monitoringDsn) {
    if (config.nodeEnv === "production") {
      log.warn("monitoring:disabled", { reason: "MONITORING_DSN is not set" });
    }
    return;
  }
  const Sentry = await import("@sentry/deno");
  Sentry.init({ dsn: config.monitoringDsn, environment: config.nodeEnv });
  capture = (error) => Sentry.captureException(error);
  log.info("monitoring:enabled", {});
}

export function captureException(error: unknown): void {
  capture(error);
}
