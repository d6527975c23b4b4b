// Sealing a batch and wrapping its session's key, without a store or a database: a batch opens
// only under its key, at its place, byte for byte as sealed; a rotated store key still unwraps.
import assert from "node:assert/strict";
import { loadConfig } from "@/config.ts";
import { type BatchPlace, openBatch, SEAL_OVERHEAD, sealBatch, SealError } from "./seal.ts";
import { KeyUnavailable, newDataKey, unwrapKey, wrapKey } from "./keys.ts";

const PLACE: BatchPlace = { projectId: "p1", sessionExternalId: "s1", batchId: 7 };
const GZIP = new TextEncoder().encode("recorded text: Ada Lovelace, 4111 1111 1111 1111");
const randomKey = () => crypto.getRandomValues(new Uint8Array(32)).toBase64();
const storeKeys = (env: Record<string, string>) =>
  loadConfig({
    NODE_ENV: "test",
    EVENTS_STORE: "s3://bucket",
    AWS_ACCESS_KEY_ID: "a",
    AWS_SECRET_ACCESS_KEY: "s",
    ...env,
  }).eventsStore!.keys;

Deno.test("seal: a batch opens to its bytes at its place under its key; the text is not in it", async () => {
  const key = await newDataKey();
  const sealed = await sealBatch(key, PLACE, GZIP);
  assert.equal(sealed.length, GZIP.length + SEAL_OVERHEAD);
  assert.ok(!new TextDecoder().decode(sealed).includes("Lovelace"));
  assert.deepEqual(await openBatch(key, PLACE, sealed), GZIP);
  // A fresh IV each time: the same batch never seals to the same bytes.
  assert.notDeepEqual(await sealBatch(key, PLACE, GZIP), sealed);
});

Deno.test("seal: another place, another key or one altered byte does not open", async () => {
  const key = await newDataKey();
  const sealed = await sealBatch(key, PLACE, GZIP);
  for (
    const place of [
      { ...PLACE, projectId: "p2" },
      { ...PLACE, sessionExternalId: "s2" },
      { ...PLACE, batchId: 8 },
      // Fields are not concatenated: moving a character from one to the next changes the place.
      { ...PLACE, projectId: "p1s", sessionExternalId: "1" },
    ]
  ) {
    await assert.rejects(openBatch(key, place, sealed), SealError, JSON.stringify(place));
  }
  await assert.rejects(openBatch(await newDataKey(), PLACE, sealed), SealError);
  for (const at of [0, 1, 13, Math.floor(sealed.length / 2), sealed.length - 1]) {
    const tampered = sealed.slice();
    tampered[at] ^= 1;
    await assert.rejects(openBatch(key, PLACE, tampered), SealError, `byte ${at}`);
  }
  await assert.rejects(openBatch(key, PLACE, sealed.subarray(0, SEAL_OVERHEAD - 1)), SealError);
  // The same key and place open it: the failures above are the changes', not the test's.
  assert.deepEqual(await openBatch(key, PLACE, sealed), GZIP);
});

Deno.test("keys: a data key wrapped by a previous store key still unwraps after a rotation, then is re-wrapped by the new one", async () => {
  const [oldKey, newKey] = [randomKey(), randomKey()];
  const before = storeKeys({ EVENTS_STORE_KEY: oldKey });
  const after = storeKeys({ EVENTS_STORE_KEY: newKey, EVENTS_STORE_KEY_PREVIOUS: oldKey });
  assert.equal(after.previous[0].id, before.current.id);
  assert.notEqual(after.current.id, before.current.id);

  const dataKey = await newDataKey();
  const sealed = await sealBatch(dataKey, PLACE, GZIP);
  const wrapped = await wrapKey(before, dataKey);
  assert.equal(wrapped.kek_id, before.current.id);
  // Without the previous key the data key is gone, and the message names the variables.
  await assert.rejects(
    unwrapKey(storeKeys({ EVENTS_STORE_KEY: newKey }), wrapped),
    (e: Error) => e instanceof KeyUnavailable && /EVENTS_STORE_KEY_PREVIOUS/.test(e.message),
  );
  const unwrapped = await unwrapKey(after, wrapped, true);
  assert.deepEqual(await openBatch(unwrapped, PLACE, sealed), GZIP);
  const rewrapped = await wrapKey(after, unwrapped);
  assert.equal(rewrapped.kek_id, after.current.id);
  const alone = storeKeys({ EVENTS_STORE_KEY: newKey });
  assert.deepEqual(await openBatch(await unwrapKey(alone, rewrapped), PLACE, sealed), GZIP);
  // A wrapped key altered in the database does not unwrap.
  const altered = { ...rewrapped, wrapped: rewrapped.wrapped.slice() };
  altered.wrapped[3] ^= 1;
  await assert.rejects(unwrapKey(alone, altered), KeyUnavailable);
});
