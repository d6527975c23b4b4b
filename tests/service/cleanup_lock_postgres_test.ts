// The daily cleanup's advisory lock held by another instance's connection (PostgreSQL: PGlite has
// one connection).
import assert from "node:assert/strict";
import { sql } from "kysely";
import { runCleanup } from "@/core/service/cleanup.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { ids, prepare } from "@/tests/helpers/cleanup_world.ts";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";

postgresUrl();

Deno.test({
  name:
    "cleanup: the advisory lock held by another instance's connection stops the run (PostgreSQL)",
  fn: async () => {
    await using t = await createTestApp();
    const now = Date.now();
    await prepare(t, now);
    // Another instance: a different connection of the pool holds the lock.
    await t.db.kysely.connection().execute(async (other) => {
      await sql`SELECT pg_advisory_lock(hashtext('playhead:daily-cleanup'))`.execute(other);
      try {
        const res = await call(t.app, "GET", "/api/cron/daily-cleanup");
        assert.equal(res.status, 200);
        assert.equal((await res.json()).skipped, true);
        assert.equal((await ids(t, "sessions")).size, 3);
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtext('playhead:daily-cleanup'))`.execute(other);
      }
    });
    assert.equal((await runCleanup(t.deps, new Date(now))).sessions, 1);
  },
});
