// A batch of X's session racing X's erasure, on PostgreSQL (two connections): the ingest statement
// waits on the erasure's locks, and once the erasure commits it writes nothing (the tombstone is
// there when it runs again), recreating no session, batch, user or key.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { type IngestRow, writeIngest } from "@/db/queries/ingest/write.ts";
import { eraseTrackedUserRows, lockTrackedUser } from "@/db/queries/tracked_users/erase.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { createTestDb } from "@/tests/helpers/db.ts";
import { recent } from "@/tests/helpers/times.ts";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";

postgresUrl(); // two statements interleave only on PostgreSQL: PGlite has one connection

const T0 = recent(1_760_000_000_000);

function row(projectKey: string, externalId: string, firstTs: number, userId: string): IngestRow {
  return {
    projectKey,
    newSessionId: crypto.randomUUID(),
    externalId,
    metadata: null,
    identity: { newTrackedUserId: crypto.randomUUID(), userId, traitsJson: "{}" },
    batch: {
      firstTs,
      lastTs: firstTs + 10,
      eventCount: 1,
      digest: new Uint8Array(32).fill(firstTs % 251),
      data: new TextEncoder().encode(`batch at ${firstTs}`),
      sliceMarkersJson: null,
      markersJson: "[]",
      signals: null,
    },
  };
}

Deno.test("erase: a batch racing the erasure of its session writes nothing once it commits", async () => {
  await using db = await createTestDb();
  const project = await insertProject(db.kysely);
  const externalId = crypto.randomUUID();
  const first = await writeIngest(db.kysely, row(project.key, externalId, T0, "xavier"));
  assert.ok(first?.trackedUserId);
  let racing: Promise<unknown> = Promise.resolve();
  let waited = false;
  await db.kysely.transaction().execute(async (trx) => {
    const user = await lockTrackedUser(trx, project.organization_id, first.trackedUserId!);
    await eraseTrackedUserRows(trx, project.organization_id, user!, "0".repeat(64));
    // The tab's next batch, identified as X, arrives while the erasure is uncommitted.
    racing = writeIngest(db.kysely, row(project.key, externalId, T0 + 5_000, "xavier"))
      .then((r) => r, (e: unknown) => e);
    // Bounded: until the batch's statement waits on the erasure's locks (at most 5 s).
    for (let i = 0; i < 500; i++) {
      const { rows } = await sql<{ n: number }>`SELECT count(*)::integer AS n
        FROM pg_stat_activity WHERE wait_event_type = 'Lock'`.execute(db.kysely);
      if ((waited = rows[0].n > 0)) break;
      await new Promise((r) => setTimeout(r, 10));
    }
  });
  assert.ok(waited, "the batch's statement waited on the erasure");
  const result = await racing;
  assert.equal(result, null, `refused, nothing written (got ${String(result)})`);
  const n = async (table: "sessions" | "event_batches" | "tracked_users" | "session_data_keys") =>
    (await db.kysely.selectFrom(table).selectAll().execute()).length;
  assert.deepEqual(
    [
      await n("sessions"),
      await n("event_batches"),
      await n("tracked_users"),
      await n("session_data_keys"),
    ],
    [0, 0, 0, 0],
  );
});
