// A tracked user's erasure on a real Ceph RADOS Gateway: their sealed batches,
// packed in one object with another user's, can no longer be opened (their keys are gone; no key
// left opens them), while the other user's session in that same object still plays; a late batch
// for the erased session is 410 and recreates nothing.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { NO_S3, s3Endpoint, storeEnv } from "@/tests/helpers/object_store.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { unwrapKey } from "@/core/storage/keys.ts";
import { openBatch } from "@/core/storage/seal.ts";
import { storeWorld, T0 } from "./world.ts";

const ignore = NO_S3 !== null;
if (NO_S3) console.warn(`tests/storage: ignored: ${NO_S3}`);
const TEXT_X = "Xavier's sealed secret 5500-0000";
const TEXT_Y = "Yvonne's kept note";

Deno.test({
  name: "erasure on the store: the erased user's bytes open under no key; the other user's, " +
    "packed in the same object, still play",
  ignore,
  fn: async () => {
    await using s3 = await s3Endpoint();
    await using t = await createTestApp(storeEnv(s3.s3));
    const w = await storeWorld(t);
    const db = t.db.kysely;
    const [externalX, externalY] = [crypto.randomUUID(), crypto.randomUUID()];
    const identify = async (sessionId: string, userId: string) => {
      const metadata = { ...METADATA, userIdentity: { userId } };
      const events = recordedEvents(2, T0 - 10_000);
      const res = await postIngest(t.app, { sessionId, events, metadata }, { key: w.alpha.key });
      assert.equal(res.status, 204);
    };
    await identify(externalX, "xavier");
    await identify(externalY, "yvonne");
    const x = await w.record(externalX, 2, 40, T0, TEXT_X);
    const y = await w.record(externalY, 2, 40, T0 + 999_000, TEXT_Y);
    const played = await w.events(y);
    assert.equal((await w.offload()).objects, 1);
    const rows = await db.selectFrom("event_batches")
      .select(["id", "project_id", "session_external_id", "object_key", "object_offset"])
      .select("object_length").execute();
    assert.equal(new Set(rows.map((r) => r.object_key)).size, 1, "one object holds both");
    const xRows = rows.filter((r) => r.session_external_id === externalX);
    assert.equal(xRows.length, 3);
    const xUser = await db.selectFrom("tracked_users").select("id")
      .where("external_id", "=", "xavier").executeTakeFirstOrThrow();

    const res = await call(t.app, "POST", `/api/tracked-users/${xUser.id}/erase`, {
      cookie: w.me.cookie,
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual([body.sessions, body.batches, body.keysDestroyed, body.inlineBytes], [
      1,
      3,
      1,
      0,
    ]);
    assert.equal((await w.get(`/api/sessions/${x}/events`)).res.status, 404);
    // X's bytes are still in the object, but no data key left opens any of them.
    const keys = await db.selectFrom("session_data_keys").select(["kek_id", "wrapped"]).execute();
    assert.equal(keys.length, 1, "Y's key alone");
    for (const row of xRows) {
      const sealed = await w.store.getRange(
        row.object_key!,
        Number(row.object_offset),
        row.object_length!,
      );
      assert.ok(sealed && sealed.byteLength > 0);
      const place = { projectId: row.project_id, sessionExternalId: row.session_external_id };
      for (const k of keys) {
        const key = await unwrapKey(w.store.config.keys, k);
        await assert.rejects(openBatch(key, { ...place, batchId: Number(row.id) }, sealed!));
      }
    }
    // Y, in the same object, plays as before.
    assert.deepEqual(await w.events(y), played);
    assert.ok(JSON.stringify(played).length > 0);

    // A late batch for X's session: 410, and nothing recreated.
    const before = await db.selectFrom("event_batches").select("id").execute();
    const late = await postIngest(t.app, {
      sessionId: externalX,
      events: recordedEvents(3, T0 + 500_000),
    }, { key: w.alpha.key });
    assert.equal(late.status, 410);
    assert.deepEqual(await db.selectFrom("event_batches").select("id").execute(), before);
    assert.equal(
      (await db.selectFrom("sessions").select("id").where("external_id", "=", externalX)
        .execute()).length,
      0,
    );
  },
});
