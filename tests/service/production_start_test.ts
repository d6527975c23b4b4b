// `deno task start` grants only what production needs (the start itself, on PostgreSQL:
// production_start_postgres_test.ts).
import assert from "node:assert/strict";
import denoJson from "@/deno.json" with { type: "json" };

Deno.test("start: the task grants only net, env and reading the app's own files", () => {
  const flags = denoJson.tasks.start.split(/\s+/).filter((word) => word.startsWith("-"));
  assert.deepEqual(flags.sort(), [
    "--allow-env",
    "--allow-net",
    "--allow-read=.",
    "--no-prompt",
    "--unstable-cron",
  ]);
});
