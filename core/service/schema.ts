// Answers of the service endpoints: the health check (api/service/health.ts) and the daily
// cleanup (api/service/cron.ts, core/service/cleanup.ts), strict so an undocumented field fails
// tests/service/openapi_test.ts.
import { z } from "zod";

export const health = z.strictObject({
  status: z.literal("ok"),
  database: z.literal("ok"),
  version: z.string(),
  databaseKind: z.enum(["postgres", "pglite"]),
  migrationLevel: z.string().meta({ description: 'the latest applied migration, or "none"' }),
  store: z.enum(["off", "ok", "unavailable"]).meta({
    description: 'the recording store (EVENTS_STORE): "off" keeps recordings in the database; ' +
      "from its last requests, without waiting for one",
  }),
});

const deleted = z.number().int().nonnegative();

export const cleanupResult = z.strictObject({
  invites: deleted,
  sessions: deleted,
  trackedUsers: deleted,
  organizations: deleted,
  skipped: z.boolean().meta({ description: "another run held the lock; nothing was deleted" }),
});
