// A flood of dashboard reads that hang on the database holds only the dashboard's share of the
// pool, so ingest still gets connections of its own (PostgreSQL: PGlite is one connection, there is
// no pool to share out).
import assert from "node:assert/strict";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";
import { lockTable } from "@/tests/helpers/table_lock.ts";
import { waitUntil } from "@/tests/helpers/wait.ts";

postgresUrl();

Deno.test({
  name: "a flood of dashboard reads stuck on the database leaves ingest its own connections",
  fn: async () => {
    await using t = await createTestApp({ INGEST_DATABASE_BUDGET_MS: "3000" });
    const { cookie } = await signedInUser(t);
    const project = await insertProject(t.db.kysely);
    const dashboard = t.db.gate.shares.dashboard;
    // Every dashboard request resolves its viewer, which reads revoked_tokens; ingest does not.
    // The lock is taken outside any request, on one of the pool's own connections.
    const lock = await lockTable(t.db.kysely, "revoked_tokens");
    const reads = Array.from(
      { length: 12 },
      () => call(t.app, "GET", "/api/sessions/summary", { cookie }),
    );
    try {
      // The dashboard's share (3 of the pool's 10) waits on the lock; the other reads queue.
      await waitUntil(() => t.db.gate.usage().dashboard.held === dashboard, "the share held");
      const ingest = await postIngest(t.app, {
        sessionId: crypto.randomUUID(),
        events: recordedEvents(3),
        metadata: METADATA,
      }, { key: project.key });
      assert.equal(ingest.status, 204, await ingest.text());
      // The queued reads give up after their share's wait: each one is answered 503.
      const busy = () => t.logs.filter((l) => l.tag === "db:share:busy").length;
      await waitUntil(() => busy() >= 12 - dashboard, "the queued reads answered busy");
      await lock.release();
      const answers = await Promise.all(reads);
      const statuses = answers.map((read) => read.status).sort();
      const expected = [...Array(dashboard).fill(200), ...Array(12 - dashboard).fill(503)];
      assert.deepEqual(statuses, expected);
      for (const read of answers) {
        // Past the share's wait: 503 with Retry-After, never a 500.
        if (read.status === 503) {
          assert.equal(read.headers.get("retry-after"), "1");
          assert.equal((await read.json()).kind, "unavailable");
        } else await read.body?.cancel();
      }
      assert.equal(t.db.gate.usage().dashboard.peak, dashboard);
    } finally {
      await lock.release().catch(() => {});
      // On a failure too: every read ends before the app closes, so a regression fails, not hangs.
      for (const read of await Promise.allSettled(reads)) {
        if (read.status === "fulfilled") await read.value.body?.cancel().catch(() => {});
      }
    }
  },
});
