// Object-store faults on a private Ceph cluster whose gateway is paused (SIGSTOP): a
// store that stops answering. Ingest still answers 204, the offloader backs off and logs
// storage:offload:failed, reads of offloaded batches answer 503 with Retry-After, and everything
// resumes by itself once the gateway does. A missing or truncated object replays what remains.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { NO_CEPH, pauseGateway, s3Endpoint, storeEnv } from "@/tests/helpers/object_store.ts";
import { waitUntil } from "@/tests/faults/service.ts";
import { startOffloader } from "@/core/storage/offload.ts";
import { stagedTotals } from "@/db/queries/storage/offload.ts";
import { storeWorld, T0 } from "./world.ts";

Deno.test({
  name: "store faults: a store that stops answering costs ingest nothing, reads answer 503 " +
    "with Retry-After, and the offloader resumes by itself",
  ignore: NO_CEPH !== null,
  fn: async () => {
    await using s3 = await s3Endpoint({ own: true });
    await using t = await createTestApp(storeEnv(s3.s3, {
      EVENTS_STORE_TIMEOUT_MS: "1000",
      EVENTS_STORE_FLUSH_MS: "200",
    }));
    const w = await storeWorld(t);
    const early = await w.record(crypto.randomUUID(), 3);
    const earlyBefore = await w.events(early);
    await w.offload();

    await pauseGateway(s3.dir!, true);
    try {
      const late = await w.record(crypto.randomUUID(), 3, 40, T0 + 500_000); // asserts 204s
      const lateBefore = await w.events(late); // inline: still served
      const down = await w.get(`/api/sessions/${early}/events`);
      assert.equal(down.res.status, 503);
      assert.equal(down.body.kind, "unavailable");
      assert.ok(Number(down.res.headers.get("retry-after")) > 0);

      const offloader = startOffloader({ db: t.db, store: w.store });
      try {
        await waitUntil(() =>
          Promise.resolve(t.logs.some((l) => l.tag === "storage:offload:failed"))
        );
        assert.equal((await stagedTotals(t.db.kysely)).batches, 3);
        const health = await (await t.app.request("/api/health")).json();
        assert.equal(health.store, "unavailable");

        await pauseGateway(s3.dir!, false);
        await waitUntil(async () => (await stagedTotals(t.db.kysely)).batches === 0, 600);
      } finally {
        await offloader.stop();
      }
      assert.deepEqual(await w.events(early), earlyBefore);
      assert.deepEqual(await w.events(late), lateBefore);
      assert.equal((await (await t.app.request("/api/health")).json()).store, "ok");
    } finally {
      await pauseGateway(s3.dir!, false);
    }
  },
});

Deno.test({
  name: "store faults: a missing or truncated object replays what remains (its batches empty)",
  ignore: NO_CEPH !== null,
  fn: async () => {
    await using s3 = await s3Endpoint();
    await using t = await createTestApp(storeEnv(s3.s3));
    const w = await storeWorld(t);
    const a = await w.record(crypto.randomUUID(), 2);
    await w.offload();
    const b = await w.record(crypto.randomUUID(), 2, 40, T0 + 500_000);
    await w.offload();
    const c = await w.record(crypto.randomUUID(), 2, 40, T0 + 900_000);
    await w.offload();
    const before = await Promise.all([a, b, c].map(w.events));
    const keyOf = async (id: string) =>
      (await t.db.kysely.selectFrom("event_batches").innerJoin(
        "sessions",
        (j) =>
          j.onRef("sessions.external_id", "=", "event_batches.session_external_id")
            .onRef("sessions.project_id", "=", "event_batches.project_id"),
      ).select("object_key").where("sessions.id", "=", id).executeTakeFirstOrThrow()).object_key!;
    await w.store.delete(await keyOf(a));
    await w.store.put(await keyOf(b), new Uint8Array(10)); // truncated

    const after = await Promise.all([a, b, c].map(w.events));
    for (const i of [0, 1]) {
      assert.deepEqual(
        after[i].batches.map((x) => x.data),
        before[i].batches.map(() => ""),
      );
      assert.deepEqual(
        after[i].batches.map((x) => x.id),
        before[i].batches.map((x) => x.id),
      );
    }
    assert.deepEqual(after[2], before[2]);
    assert.ok(t.logs.some((l) => l.tag === "storage:read:missing"));
  },
});
