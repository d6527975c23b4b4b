// A whole app on a disposable database, for tests that call `app.request()` (no port).
import type { Hono } from "hono";
import { type AppParts, createApp } from "@/app.ts";
import { type AppDeps, createDeps } from "@/core/deps.ts";
import { loadConfig } from "@/config.ts";
import { type CapturedLog, captureLogs } from "@/log.ts";
import { createTestDb, type TestDb } from "./db.ts";

export interface TestApp extends AsyncDisposable {
  app: Hono;
  deps: AppDeps;
  db: TestDb;
  logs: CapturedLog[];
}

export async function createTestApp(
  env: Record<string, string> = {},
  parts: AppParts = {},
): Promise<TestApp> {
  const logs = await captureLogs();
  const db = await createTestDb();
  const deps = createDeps(loadConfig({ NODE_ENV: "test", ...env }), db);
  return {
    app: createApp(deps, parts),
    deps,
    db,
    logs,
    [Symbol.asyncDispose]: async () => {
      await deps.lastUsed.settle();
      deps.close();
      await db[Symbol.asyncDispose]();
    },
  };
}
