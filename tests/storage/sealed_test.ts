// Recordings sealed at rest, against a real Ceph RADOS Gateway (docs/decisions.md "Recordings in
// an object store"): no object shows a recorded text, raw or unzipped; a batch opens only at its
// own place, so bytes moved into another session's place are reported, never replayed; destroying
// a session's key leaves its bytes unreadable while the session packed beside it still plays; the
// sampled upload check keeps a bad upload from being committed; a rotated store key re-wraps keys.
import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { createTestApp } from "@/tests/helpers/app.ts";
import { NO_S3, s3Endpoint, storeEnv } from "@/tests/helpers/object_store.ts";
import { destroySessionKeys } from "@/db/queries/storage/keys.ts";
import { stagedTotals } from "@/db/queries/storage/offload.ts";
import { sweepStore } from "@/core/storage/sweep.ts";
import { sessionBatches } from "@/core/sessions/detail.ts";
import { ObjectStore } from "@/db/object_store.ts";
import { findSession } from "@/db/queries/sessions/detail.ts";
import { loadConfig } from "@/config.ts";
import { storeWorld, T0, wholeObject } from "./world.ts";

const ignore = NO_S3 !== null;
if (NO_S3) console.warn(`tests/storage: ignored: ${NO_S3}`);
const TEXT_A = "Ada Lovelace's card 4111-1111";
const TEXT_B = "Grace Hopper's note";
const randomKey = () => crypto.getRandomValues(new Uint8Array(32)).toBase64();

/** Every text a raw read of `bytes` could show: as is, and unzipped from each gzip header. */
function readable(bytes: Uint8Array): string {
  const texts = [new TextDecoder().decode(bytes)];
  for (let at = bytes.indexOf(0x1f); at >= 0; at = bytes.indexOf(0x1f, at + 1)) {
    if (bytes[at + 1] !== 0x8b) continue;
    try {
      texts.push(new TextDecoder().decode(gunzipSync(bytes.subarray(at))));
    } catch {
      // not a gzip stream after all
    }
  }
  return texts.join("\n");
}

Deno.test({
  name: "sealed: no object shows a recorded text; a moved range or a destroyed key is reported, " +
    "never replayed, while the session beside it plays",
  ignore,
  fn: async () => {
    await using s3 = await s3Endpoint();
    await using t = await createTestApp(storeEnv(s3.s3));
    const w = await storeWorld(t);
    const [externalA, externalB] = [crypto.randomUUID(), crypto.randomUUID()];
    const a = await w.record(externalA, 3, 40, T0, TEXT_A);
    const b = await w.record(externalB, 3, 40, T0 + 999_000, TEXT_B);
    const inline = { a: await w.events(a), b: await w.events(b) };
    assert.ok(JSON.stringify(inline).length > 0 && (await w.offload()).objects === 1);

    const keys: string[] = [];
    for await (const key of w.store.list("")) keys.push(key);
    assert.equal(keys.length, 1);
    for (const key of keys) {
      const text = readable(new Uint8Array(await wholeObject(w.store.config, key)));
      for (const secret of [TEXT_A, TEXT_B, "Lovelace", "Hopper", '"type"']) {
        assert.ok(!text.includes(secret), `${secret} readable in ${key}`);
      }
    }
    // Read as a replay does, the bytes are the ones recorded.
    assert.deepEqual({ a: await w.events(a), b: await w.events(b) }, inline);
    const unreadable = async (reason: string) => {
      const { text } = await t.deps.metrics.scrape();
      const line = `playhead_store_unreadable_batches_total{reason="${reason}"} `;
      return Number(text.split("\n").find((l) => l.startsWith(line))?.slice(line.length));
    };
    assert.equal(await unreadable("decrypt"), 0);

    // A's batch moved into B's place, and B's first batch into its second's: neither opens.
    const rows = await t.db.kysely.selectFrom("event_batches")
      .select(["id", "session_external_id", "object_key", "object_offset", "object_length"])
      .orderBy("object_offset").execute();
    const [a0] = rows.filter((r) => r.session_external_id === externalA);
    const [b0, b1, b2] = rows.filter((r) => r.session_external_id === externalB);
    for (const [from, to] of [[a0, b2], [b0, b1]]) {
      await t.db.kysely.updateTable("event_batches")
        .set({ object_offset: from.object_offset, object_length: from.object_length })
        .where("id", "=", to.id).execute();
    }
    const moved = await w.events(b);
    assert.deepEqual(moved.batches.map((x) => x.data === ""), [false, true, true]);
    assert.deepEqual(moved.batches[0], inline.b.batches[0]);
    assert.ok(!JSON.stringify(moved).includes(inline.a.batches[0].data));
    assert.equal(await unreadable("decrypt"), 2);
    assert.ok(t.logs.some((l) => l.tag === "storage:open:failed" && l.props.reason === "decrypt"));

    // A's key destroyed: none of its batches opens; B's first batch, in the same object, does.
    assert.equal(await destroySessionKeys(t.db.kysely, [a]), 1);
    assert.ok((await w.events(a)).batches.every((x) => x.data === ""));
    assert.equal(await unreadable("no_key"), 3);
    assert.deepEqual((await w.events(b)).batches[0], inline.b.batches[0]);
    assert.equal(await destroySessionKeys(t.db.kysely, [a]), 0);
    // A deleted session takes its key with it (the cascade).
    await t.db.kysely.deleteFrom("sessions").where("id", "=", b).execute();
    assert.deepEqual(await t.db.kysely.selectFrom("session_data_keys").selectAll().execute(), []);
  },
});

Deno.test({
  name: "sealed: a sampled upload that does not read back is not committed, and is counted; a " +
    "rotated store key re-wraps the data keys in the daily sweep",
  ignore,
  fn: async () => {
    await using s3 = await s3Endpoint();
    const oldKey = randomKey();
    const env = storeEnv(s3.s3, { EVENTS_STORE_KEY: oldKey, EVENTS_STORE_CHECK_EVERY: "2" });
    await using t = await createTestApp(env);
    const w = await storeWorld(t);
    const id = await w.record(crypto.randomUUID(), 2);
    const inline = await w.events(id);
    const getRange = w.store.getRange.bind(w.store);
    w.store.getRange = async (...args) => {
      const bytes = await getRange(...args);
      bytes![bytes!.length - 1] ^= 1;
      return bytes;
    };
    await assert.rejects(w.offload(), /upload check/);
    assert.equal((await stagedTotals(t.db.kysely)).batches, 2, "the batches stay staged");
    assert.deepEqual(w.store.seals.checks, { ok: 0, failed: 1 });
    const { text } = await t.deps.metrics.scrape();
    assert.match(text, /^playhead_store_upload_checks_total\{outcome="failed"\} 1$/m);
    // Upload 2 of every 2 is not read back (the same bad store lets it through); 3 is, fine.
    w.store.getRange = getRange;
    assert.equal((await w.offload()).batches, 2);
    assert.deepEqual(w.store.seals.checks, { ok: 0, failed: 1 });
    await w.record(crypto.randomUUID(), 1);
    await w.offload();
    assert.deepEqual(w.store.seals.checks, { ok: 1, failed: 1 });

    // Rotation: the new key alone cannot unwrap; with the old one as previous, the sweep re-wraps.
    const newKey = randomKey();
    const storeWith = (keys: Record<string, string>) =>
      new ObjectStore(loadConfig({ NODE_ENV: "test", ...env, ...keys }).eventsStore!);
    const events = async (store: ObjectStore) => {
      const session = (await findSession(t.db.kysely, w.me.organizationId, id))!;
      const out = [];
      for await (const batch of await sessionBatches({ db: t.db, store }, session)) {
        out.push(batch);
      }
      return out;
    };
    const newOnly = storeWith({ EVENTS_STORE_KEY: newKey });
    assert.ok((await events(newOnly)).every((x) => x.data === ""));
    assert.equal(newOnly.seals.unreadable.unwrap, 2);
    const rotated = storeWith({ EVENTS_STORE_KEY: newKey, EVENTS_STORE_KEY_PREVIOUS: oldKey });
    assert.deepEqual(await events(rotated), inline.batches);
    const swept = await sweepStore(t.db.kysely, rotated, new Date(), 7 * 86_400_000);
    assert.equal(swept.rewrapped, 2);
    const kekIds = await t.db.kysely.selectFrom("session_data_keys").select("kek_id").execute();
    assert.deepEqual(
      new Set(kekIds.map((k) => k.kek_id)),
      new Set([newOnly.config.keys.current.id]),
    );
    assert.deepEqual(await events(newOnly), inline.batches, "the new key alone opens them");
  },
});
