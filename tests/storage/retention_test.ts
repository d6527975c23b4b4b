// Deletion and retention in the object store: a deleted session is never served again
// and its bytes leave the store within two daily cleanups; days past retention are deleted by
// prefix (with a lifecycle rule as a second guard); an upload whose commit never came is swept.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { postIngest } from "@/tests/helpers/ingest.ts";
import { NO_S3, s3Endpoint, storeEnv } from "@/tests/helpers/object_store.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";
import { runCleanup } from "@/core/service/cleanup.ts";
import { recordObject } from "@/db/queries/storage/offload.ts";
import type { ObjectStore } from "@/db/object_store.ts";
import { storeWorld, T0 } from "./world.ts";
const ignore = NO_S3 !== null;
const DAY_MS = 86_400_000;

async function keys(store: ObjectStore): Promise<string[]> {
  const out = [];
  for await (const key of store.list("")) out.push(key);
  return out.sort();
}

Deno.test({
  name: "store deletion: a deleted session is gone at once; the cleanup rewrites its object " +
    "without its bytes, and deletes the replaced object at the next run",
  ignore,
  fn: async () => {
    await using s3 = await s3Endpoint();
    await using t = await createTestApp(storeEnv(s3.s3));
    const w = await storeWorld(t);
    const kept = await w.record(crypto.randomUUID(), 3);
    const gone = await w.record(crypto.randomUUID(), 3, 40, T0 + 500_000);
    const cancelled = crypto.randomUUID();
    await w.record(cancelled, 2, 40, T0 + 900_000);
    const keptBefore = await w.events(kept);
    await w.offload();
    const [first] = await keys(w.store);
    const size = (await t.db.kysely.selectFrom("stored_objects").select("bytes")
      .executeTakeFirstOrThrow()).bytes;

    const del = await call(t.app, "DELETE", `/api/sessions/${gone}`, { cookie: w.me.cookie });
    assert.equal(del.status, 204);
    assert.equal((await w.get(`/api/sessions/${gone}/events`)).res.status, 404);
    // The SDK's cancel too.
    const res = await postIngest(
      t.app,
      { sessionId: cancelled },
      { key: w.alpha.key },
      "/api/sessions/cancel",
    );
    assert.equal(res.status, 204);
    const dirty = await t.db.kysely.selectFrom("stored_objects").selectAll()
      .executeTakeFirstOrThrow();
    assert.ok(dirty.dirty);

    await runCleanup(t.deps, new Date());
    const objects = await t.db.kysely.selectFrom("stored_objects").selectAll().orderBy("created_at")
      .execute();
    const live = objects.filter((o) => o.committed);
    assert.equal(live.length, 1);
    const { sum } = await t.db.kysely.selectFrom("event_batches")
      .select((eb) => eb.fn.sum<number>("object_length").as("sum")).executeTakeFirstOrThrow();
    assert.equal(Number(live[0].bytes), Number(sum));
    assert.ok(Number(live[0].bytes) < Number(size));
    assert.deepEqual(await w.events(kept), keptBefore);
    // The replaced object stays one run (a replay may be reading it), then goes.
    assert.deepEqual(await keys(w.store), [first, live[0].key].sort());
    await runCleanup(t.deps, new Date(), { orphanAgeMs: 0 });
    assert.deepEqual(await keys(w.store), [live[0].key]);
    assert.deepEqual(await w.events(kept), keptBefore);
  },
});

Deno.test({
  name: "store retention: days past retention are deleted by prefix, a lifecycle rule guards " +
    "the prefix, and an orphaned upload is swept",
  ignore,
  fn: async () => {
    await using s3 = await s3Endpoint();
    await using t = await createTestApp(storeEnv(s3.s3));
    const w = await storeWorld(t);
    const old = await insertSession(t.db.kysely, w.alpha, {
      createdAt: new Date(Date.now() - 10 * DAY_MS),
    });
    await w.record(old.external_id, 2);
    const fresh = await w.record(crypto.randomUUID(), 2, 40, T0 + 500_000);
    const freshBefore = await w.events(fresh);
    assert.equal((await w.offload()).objects, 2); // one per day of session creation
    const oldDay = old.created_at.toISOString().slice(0, 10);
    assert.ok((await keys(w.store)).some((k) => k.startsWith(`recordings/${oldDay}/`)));
    // A crash between upload and commit: the object is recorded, uploaded, never committed.
    const orphan = w.store.newKey(new Date().toISOString().slice(0, 10));
    await recordObject(t.db.kysely, orphan, new Date().toISOString().slice(0, 10), 3);
    await w.store.put(orphan, new Uint8Array([1, 2, 3]));

    await runCleanup(t.deps, new Date(), { orphanAgeMs: 0 });
    const left = await keys(w.store);
    assert.equal(left.length, 1);
    assert.ok(!left[0].includes(oldDay) && left[0] !== orphan);
    assert.deepEqual(
      (await t.db.kysely.selectFrom("stored_objects").select("key").execute()).map((o) => o.key),
      left,
    );
    assert.deepEqual(await w.events(fresh), freshBefore);

    const rule = await w.store.getLifecycle();
    assert.match(rule, /<Prefix>recordings\/2<\/Prefix>/); // the day prefixes, not pinned/
    assert.match(rule, /<Days>9<\/Days>/);
  },
});
