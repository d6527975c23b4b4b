// Recordings in the object store, against a real Ceph RADOS Gateway: ingest stages each
// batch in PostgreSQL, the offloader packs them into objects and frees their inline bytes, and
// the events endpoint answers the same bytes as before, reading adjacent ranges as one request.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp } from "@/tests/helpers/app.ts";
import { NO_S3, s3Endpoint, storeEnv } from "@/tests/helpers/object_store.ts";
import { sessionFirstBatches } from "@/core/sessions/detail.ts";
import { stagedTotals } from "@/db/queries/storage/offload.ts";
import { countReads, storeWorld, T0 } from "./world.ts";

const ignore = NO_S3 !== null;
if (NO_S3) console.warn(`tests/storage: ignored: ${NO_S3}`);

Deno.test({
  name: "offload: batches move to one object per flush and day, answered byte for byte, read " +
    "as one range per session",
  ignore,
  fn: async () => {
    await using s3 = await s3Endpoint();
    await using t = await createTestApp(storeEnv(s3.s3));
    const w = await storeWorld(t);
    const a = await w.record(crypto.randomUUID(), 6);
    const b = await w.record(crypto.randomUUID(), 4, 40, T0 + 999_000);
    const inline = [await w.events(a), await w.events(b)];
    // The replay's selections of batches (a moment's snapshot onwards, and the rest before it).
    const selections = [`from=${100_000}`, `before=${100_000}`, `after=${inline[0].batches[2].id}`];
    const selected = async () =>
      await Promise.all(
        selections.map(async (q) => (await w.get(`/api/sessions/${a}/events?${q}`)).body),
      );
    const inlineSelected = await selected();
    assert.ok(inlineSelected.every((body) => body.batches.length > 0));
    assert.deepEqual(await stagedTotals(t.db.kysely), {
      batches: 10,
      bytes: (await stagedTotals(t.db.kysely)).bytes,
    });

    const result = await w.offload();
    assert.equal(result.batches, 10);
    assert.equal(result.objects, 1);
    assert.equal((await stagedTotals(t.db.kysely)).batches, 0);
    const rows = await t.db.kysely.selectFrom("event_batches")
      .select([
        "data",
        "object_key",
        "object_offset",
        "object_length",
        "staged",
        "session_external_id",
      ])
      .orderBy("object_offset").execute();
    assert.ok(rows.every((r) => r.data === null && r.staged === null && r.object_key));
    assert.equal(new Set(rows.map((r) => r.object_key)).size, 1);
    const day = new Date().toISOString().slice(0, 10);
    assert.match(rows[0].object_key!, new RegExp(`^recordings/${day}/`));
    // Each session's batches are contiguous in the object.
    const order = rows.map((r) => r.session_external_id);
    assert.equal(order.filter((id, i) => id !== order[i - 1]).length, 2);
    const objects = await t.db.kysely.selectFrom("stored_objects").selectAll().execute();
    assert.equal(objects.length, 1);
    assert.ok(objects[0].committed && !objects[0].dirty);

    const reads = countReads(w.store);
    assert.deepEqual([await w.events(a), await w.events(b)], inline);
    assert.equal(reads.reads, 2, "one range read per session");
    assert.deepEqual(await selected(), inlineSelected);

    // The server's first frame reads slices of an offloaded batch from the store too.
    const slices: Uint8Array[] = [];
    const viewer = {
      userId: w.me.user.id,
      email: w.me.user.email,
      activeOrganizationId: w.me.organizationId,
      role: "ADMIN" as const,
    };
    for await (const batch of await sessionFirstBatches(t.deps, viewer, a, 1)) {
      for await (const slice of batch) slices.push(slice);
    }
    assert.deepEqual(
      new Uint8Array(slices.flatMap((s) => [...s])),
      Uint8Array.fromBase64(inline[0].batches[0].data),
    );
  },
});

Deno.test({
  name: "offload: two offloaders at once never pack a batch twice",
  ignore,
  fn: async () => {
    await using s3 = await s3Endpoint();
    // Small flushes: each offloader takes a few batches per pass, so the two race for rows.
    await using t = await createTestApp(storeEnv(s3.s3, { EVENTS_STORE_FLUSH_BYTES: "6000" }));
    const w = await storeWorld(t);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await w.record(crypto.randomUUID(), 5, 40, T0 + i * 1e6));
    const before = await Promise.all(ids.map(w.events));
    let total = 0;
    for (let round = 0; round < 100 && total < 20; round++) {
      const [x, y] = await Promise.all([w.offload(), w.offload()]);
      total += x.batches + y.batches;
    }
    assert.equal(total, 20);
    const objects = await t.db.kysely.selectFrom("stored_objects").selectAll().execute();
    assert.ok(objects.length > 2, `${objects.length} objects`);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM event_batches
      WHERE object_key IS NOT NULL AND data IS NULL`.execute(t.db.kysely);
    assert.equal(rows[0].n, 20);
    // Every object's bytes are exactly the batches that point at it.
    const { rows: sums } = await sql<{ key: string; bytes: number }>`
      SELECT object_key AS key, sum(object_length)::int AS bytes FROM event_batches
      GROUP BY object_key`.execute(t.db.kysely);
    for (const o of objects) {
      assert.equal(sums.find((s) => s.key === o.key)?.bytes, Number(o.bytes), o.key);
    }
    assert.deepEqual(await Promise.all(ids.map(w.events)), before);
  },
});
