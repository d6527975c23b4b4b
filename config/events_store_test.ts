// EVENTS_STORE_KEY and its previous keys: validated at startup with a message that never echoes
// a key, required in production with a store, a fixed development key elsewhere.
import assert from "node:assert/strict";
import { loadConfig } from "@/config.ts";
import { ConfigError } from "./env.ts";

const STORE = { EVENTS_STORE: "s3://bucket", AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "s" };
const KEY = "8cHq2bEJ5m0h3Kq9Ykz3w5f8mQ1xV7rT4nL6pD2sA0E=";
const OTHER = "Zq3u6Y2k9bT1mR8wX4pL7sV0nC5hJ2dF6gA9eK3tQ1M=";
const PRODUCTION = {
  NODE_ENV: "production",
  AUTH_SECRET: "Qm7xT2vN9pL4kR8sW1cY6bH3jF5dG0zA",
  APP_URL: "https://playhead.example",
  MAIL_USER: "m@example.com",
  MAIL_APP_PASSWORD: "pw",
  DATABASE_URL: "postgres://127.0.0.1:5432/playhead",
};
const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems;
  }
};

Deno.test("config: EVENTS_STORE_KEY is 32 bytes of base64, and refused otherwise without echoing it", () => {
  const keys = loadConfig({ NODE_ENV: "test", ...STORE, EVENTS_STORE_KEY: KEY }).eventsStore!.keys;
  assert.deepEqual(keys.current.raw, Uint8Array.fromBase64(KEY));
  assert.match(keys.current.id, /^[0-9a-f]{16}$/);
  assert.equal(keys.development, false);
  const bad = [
    KEY.slice(0, -4), // 30 bytes
    KEY + "AAAA", // 35 bytes
    "not base64 at all!",
    new Uint8Array(32).toBase64(), // all zero
  ];
  for (const key of bad) {
    const found = problems({ NODE_ENV: "test", ...STORE, EVENTS_STORE_KEY: key });
    assert.deepEqual(found, [
      "EVENTS_STORE_KEY: must be 32 random bytes in base64, e.g. `openssl rand -base64 32`",
    ], key);
  }
  const previous = problems({ NODE_ENV: "test", ...STORE, EVENTS_STORE_KEY_PREVIOUS: `${KEY},x` });
  assert.equal(previous.length, 1);
  assert.match(previous[0], /^EVENTS_STORE_KEY_PREVIOUS/);
  assert.ok(!previous[0].includes(KEY));
});

Deno.test("config: production needs EVENTS_STORE_KEY with a store; elsewhere a fixed development key", () => {
  assert.deepEqual(problems({ ...PRODUCTION, ...STORE }), [
    "EVENTS_STORE_KEY is required in production with EVENTS_STORE: 32 random bytes in base64 " +
    "that wrap the recordings' keys, e.g. `openssl rand -base64 32`",
  ]);
  assert.deepEqual(problems({ ...PRODUCTION, ...STORE, EVENTS_STORE_KEY: KEY }), []);
  assert.deepEqual(problems(PRODUCTION), [], "no store, no key needed");

  const dev = loadConfig({ NODE_ENV: "development", ...STORE }).eventsStore!.keys;
  const test = loadConfig({ NODE_ENV: "test", ...STORE }).eventsStore!.keys;
  assert.equal(dev.development, true);
  assert.deepEqual(dev.current, test.current, "the same derived key at every start");
  assert.equal(dev.current.raw.length, 32);
});

Deno.test("config: EVENTS_STORE_KEY_PREVIOUS lists the keys rotated out, each with its id", () => {
  const keys = loadConfig({
    NODE_ENV: "test",
    ...STORE,
    EVENTS_STORE_KEY: KEY,
    EVENTS_STORE_KEY_PREVIOUS: ` ${OTHER} ,`,
  }).eventsStore!.keys;
  assert.equal(keys.previous.length, 1);
  assert.deepEqual(keys.previous[0].raw, Uint8Array.fromBase64(OTHER));
  // The id is the key's, wherever it is listed.
  const rotatedBack = loadConfig({ NODE_ENV: "test", ...STORE, EVENTS_STORE_KEY: OTHER })
    .eventsStore!.keys;
  assert.equal(keys.previous[0].id, rotatedBack.current.id);
  assert.notEqual(keys.previous[0].id, keys.current.id);
  assert.equal(loadConfig({ NODE_ENV: "test", ...STORE }).eventsStore!.checkEvery, 16);
});
