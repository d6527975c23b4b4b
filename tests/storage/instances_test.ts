// Two instances: two production processes (main.ts) on one PostgreSQL cluster and one
// store, SDK traffic spread over both. Every acknowledged batch is stored once and offloaded once
// by the offloaders the two share, and its bytes come back from the store as they were sent.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { openDb } from "@/db/client.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { gunzipJson } from "@/tests/helpers/ingest.ts";
import { NO_S3, s3Endpoint, storeEnv } from "@/tests/helpers/object_store.ts";
import { clusterAvailable, startCluster } from "@/tests/faults/cluster.ts";
import { ingestLoad, startService, waitUntil } from "@/tests/faults/service.ts";
import { ObjectStore } from "@/db/object_store.ts";
import { loadConfig } from "@/config.ts";
import { openStored } from "./world.ts";

Deno.test({
  name: "two instances: every batch stored once and offloaded once, the offloader shared",
  ignore: NO_S3 !== null || !clusterAvailable,
  fn: async () => {
    await using s3 = await s3Endpoint();
    await using cluster = await startCluster();
    const env = storeEnv(s3.s3, { EVENTS_STORE_FLUSH_MS: "300", EVENTS_STORE_FLUSH_BYTES: "4000" });
    const store = new ObjectStore(loadConfig({ NODE_ENV: "test", ...env }).eventsStore!);
    await store.ensureBucket();
    const db = await openDb({ kind: "postgres", url: cluster.url, max: 2 });
    try {
      const { key } = await insertProject(db.kysely);
      const services = [
        await startService(cluster.url, env),
        await startService(cluster.url, env),
      ];
      try {
        const loads = services.map((s) => ingestLoad(s.url, key, 2));
        await waitUntil(
          () => Promise.resolve(loads.every((l) => l.acknowledged.length >= 100)),
          1200,
        );
        await Promise.all(loads.map((l) => l.stop()));
        await waitUntil(async () => {
          const { rows } = await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM event_batches WHERE staged`.execute(db.kysely);
          return rows[0].n === 0;
        }, 1200);

        const acknowledged = loads.flatMap((l) => l.acknowledged);
        const rows = await db.kysely.selectFrom("event_batches")
          .select([
            "id",
            "project_id",
            "session_external_id",
            "first_ts",
            "data",
            "object_key",
            "object_offset",
            "object_length",
          ]).execute();
        const stored = new Set(rows.map((r) => `${r.session_external_id}/${r.first_ts}`));
        assert.equal(stored.size, rows.length, "a batch stored twice");
        for (const a of acknowledged) assert.ok(stored.has(`${a.sessionId}/${a.firstTs}`));
        assert.ok(rows.every((r) => r.data === null && r.object_key !== null));

        // Each object holds exactly the batches that point at it: none was packed twice.
        const objects = await db.kysely.selectFrom("stored_objects").selectAll().execute();
        assert.ok(objects.every((o) => o.committed));
        const sums = new Map<string, number>();
        for (const r of rows) {
          sums.set(r.object_key!, (sums.get(r.object_key!) ?? 0) + r.object_length!);
        }
        assert.deepEqual(
          new Map(objects.map((o) => [o.key, Number(o.bytes)])),
          sums,
        );
        for (const r of rows.slice(0, 20)) {
          const bytes = await openStored(db.kysely, store, r);
          const events = await gunzipJson(bytes) as Array<{ timestamp: number }>;
          assert.equal(events[0].timestamp, r.first_ts);
        }
      } finally {
        for (const s of services) {
          s.child.kill("SIGTERM");
          await s.status;
        }
      }
    } finally {
      await db.close();
    }
  },
});
