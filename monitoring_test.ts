import assert from "node:assert/strict";
import { loadConfig } from "./config.ts";
import { captureLogs } from "./log.ts";
import { setupMonitoring } from "./monitoring.ts";

const production = {
  NODE_ENV: "production",
  AUTH_SECRET: "monitoring-test-Vd0pK3n9yQ2mX7rB4tL8",
  DATABASE_URL: "postgres://h/db",
  APP_URL: "https://app.test",
  MAIL_USER: "bot@h.test",
  MAIL_APP_PASSWORD: "pw",
};

Deno.test("monitoring: production without MONITORING_DSN logs a warning", async () => {
  const logs = await captureLogs();
  await setupMonitoring(loadConfig(production));
  const warning = logs.find((l) => l.tag === "monitoring:disabled");
  assert.equal(warning?.level, "warning");
});

Deno.test("monitoring: development without MONITORING_DSN stays quiet", async () => {
  const logs = await captureLogs();
  await setupMonitoring(loadConfig({ NODE_ENV: "development" }));
  assert.equal(logs.length, 0);
});
