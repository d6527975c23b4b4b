// Retention per project and pins in the object store, on the Ceph gateway:
// a pinned session's bytes move into an object of their own before its day is deleted whole and
// still replay; the store's byte count falls after the retention run (listed, not inferred); an
// object no row refers to goes once older than the longest retention + 48 h, not before; the
// lifecycle rule follows the longest retention and leaves `pinned/` out; an erased pinned
// session's object goes at the next cleanup.
import assert from "node:assert/strict";
import { call } from "@/tests/helpers/auth.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { NO_S3, s3Endpoint, storeEnv } from "@/tests/helpers/object_store.ts";
import { runCleanup } from "@/core/service/cleanup.ts";
import type { ObjectStore } from "@/db/object_store.ts";
import { storeWorld, T0 } from "./world.ts";

const DAY = 86_400_000;
const HOUR = 3_600_000;

async function objects(store: ObjectStore): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for await (const o of store.listObjects("")) out.set(o.key, o.size);
  return out;
}
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

Deno.test({
  name: "store pins and retention: a pinned session's bytes leave its day's object before the " +
    "day goes whole; bytes fall; an unreferenced object goes after retention + 48 h",
  ignore: NO_S3 !== null,
  fn: async () => {
    await using s3 = await s3Endpoint();
    await using t = await createTestApp(storeEnv(s3.s3));
    const w = await storeWorld(t);
    const patch = async (retentionDays: number) => {
      const res = await call(t.app, "PATCH", `/api/projects/${w.alpha.id}`, {
        cookie: w.me.cookie,
        body: { retentionDays },
      });
      assert.equal(res.status, 200);
    };
    await patch(3); // the other projects keep the default 7 days: the longest
    const pinned = await w.record(crypto.randomUUID(), 3);
    const gone = await w.record(crypto.randomUUID(), 3, 40, T0 + 500_000);
    const pinnedBefore = await w.events(pinned);
    await w.offload();
    const pin = await call(t.app, "POST", `/api/sessions/${pinned}/pin`, { cookie: w.me.cookie });
    assert.equal(pin.status, 200);
    // An object no row refers to (a crash before its row, a lost row), outside any day.
    const stray = "recordings/stray.bin";
    await w.store.put(stray, new Uint8Array(4096));
    const before = await objects(w.store);
    assert.equal([...before.keys()].filter((k) => k.includes("/pinned/")).length, 0);

    // 9 days on, less an hour: the project's 3 days and the longest 7 are past for today's
    // sessions, the stray is not yet 7 days + 48 h old.
    const real = Date.now();
    await runCleanup(t.deps, new Date(real + 9 * DAY - HOUR));
    const after = await objects(w.store);
    const left = [...after.keys()];
    assert.equal(left.filter((k) => /recordings\/\d{4}-\d{2}-\d{2}\//.test(k)).length, 0);
    const pinnedKeys = left.filter((k) => k.startsWith("recordings/pinned/"));
    assert.equal(pinnedKeys.length, 1);
    assert.ok(after.has(stray));
    assert.ok(total(after) < total(before), `${total(after)} < ${total(before)}`);
    assert.equal((await w.get(`/api/sessions/${gone}/events`)).res.status, 404);
    assert.deepEqual(await w.events(pinned), pinnedBefore);
    const rule = await w.store.getLifecycle();
    assert.match(rule, /<Prefix>recordings\/2<\/Prefix>/);
    assert.doesNotMatch(rule, /<Prefix>recordings\/<\/Prefix>|pinned/);
    assert.match(rule, /<Days>9<\/Days>/);

    // Past retention + 48 h the stray goes; the pinned object, referred to, stays.
    await runCleanup(t.deps, new Date(real + 10 * DAY));
    assert.deepEqual([...(await objects(w.store)).keys()], pinnedKeys);
    assert.deepEqual(await w.events(pinned), pinnedBefore);

    // Erased, the pinned session's object goes with the next cleanup; the rule follows the
    // longest retention now in use.
    const del = await call(t.app, "DELETE", `/api/sessions/${pinned}`, { cookie: w.me.cookie });
    assert.equal(del.status, 204);
    await patch(30);
    await runCleanup(t.deps, new Date(real + 10 * DAY));
    assert.match(await w.store.getLifecycle(), /<Days>32<\/Days>/);
    assert.deepEqual([...(await objects(w.store)).keys()], []);
    assert.equal((await w.get(`/api/sessions/${pinned}/events`)).res.status, 404);
  },
});
