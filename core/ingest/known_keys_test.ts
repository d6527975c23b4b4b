import assert from "node:assert/strict";
import { type KeyProject, KNOWN_TTL_MS, KnownKeys, UNKNOWN_TTL_MS } from "./known_keys.ts";

Deno.test("known keys: answers from memory within the TTL, asks again after it", async () => {
  let now = 0;
  const asked: string[] = [];
  const keys = new KnownKeys(
    (key) => (asked.push(key), Promise.resolve(key === "yes" ? { recordsNetwork: false } : null)),
    () => now,
  );
  assert.equal(await keys.mayExist("yes"), true);
  assert.equal(await keys.mayExist("no"), false);
  now = UNKNOWN_TTL_MS - 1;
  assert.equal(await keys.mayExist("no"), false);
  assert.deepEqual(asked, ["yes", "no"]);
  now = UNKNOWN_TTL_MS;
  await keys.mayExist("no");
  assert.deepEqual(asked, ["yes", "no", "no"]);
  now = KNOWN_TTL_MS;
  await keys.mayExist("yes");
  assert.deepEqual(asked, ["yes", "no", "no", "yes"]);
});

Deno.test("known keys: concurrent requests with one key make one lookup", async () => {
  let calls = 0;
  let release!: (project: KeyProject) => void;
  const keys = new KnownKeys(() => (calls++, new Promise((resolve) => (release = resolve))));
  const answers = Promise.all([keys.mayExist("k"), keys.mayExist("k"), keys.mayExist("k")]);
  release({ recordsNetwork: true });
  assert.deepEqual(await answers, [true, true, true]);
  assert.equal(calls, 1);
});

Deno.test("known keys: a failed lookup is not remembered", async () => {
  let fail = true;
  const keys = new KnownKeys(() =>
    fail ? Promise.reject(new Error("down")) : Promise.resolve({ recordsNetwork: true })
  );
  await assert.rejects(keys.mayExist("k"), /down/);
  fail = false;
  assert.equal(await keys.mayExist("k"), true);
});

Deno.test("known keys: a project's network capture is remembered with its key until the TTL, or until forgotten", async () => {
  let now = 0;
  let records = false;
  let asked = 0;
  const keys = new KnownKeys(
    () => (asked++, Promise.resolve({ recordsNetwork: records })),
    () => now,
  );
  assert.deepEqual(await keys.project("k"), { recordsNetwork: false });
  records = true;
  now = KNOWN_TTL_MS - 1;
  assert.deepEqual(await keys.project("k"), { recordsNetwork: false });
  now = KNOWN_TTL_MS;
  assert.deepEqual(await keys.project("k"), { recordsNetwork: true });
  records = false;
  keys.forget("k");
  assert.deepEqual(await keys.project("k"), { recordsNetwork: false });
  assert.equal(asked, 3);
});
