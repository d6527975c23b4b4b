// GET /api/sdk/config (docs/decisions.md "Capture control"): the SDK reads its project's recording
// settings with the public key, from any origin; a minute of caching at most, per key; a missing,
// malformed or unknown key is 401 before anything else, and a refusal is never cached.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject, randomKey } from "@/tests/helpers/factories.ts";

const PATH = "/api/sdk/config";

Deno.test("sdk config: the key's project's settings, open to every origin, cacheable for at most 60 s per key", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const other = await insertProject(t.db.kysely);
  await t.db.kysely.updateTable("projects").set({
    recording_sample_rate: 0.3,
    recording_triggers: ["error"],
    recording_url_block: ["/admin/**"],
    network_enabled: true,
    network_body_urls: ["/api/**"],
  }).where("id", "=", project.id).execute();
  const get = (key: string) =>
    t.app.request(PATH, {
      headers: { "x-service-public-key": key, Origin: "https://shop.test" },
    });
  const res = await get(project.key);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  const cache = res.headers.get("cache-control")!;
  const maxAge = Number(/max-age=(\d+)/.exec(cache)?.[1]);
  assert.ok(maxAge > 0 && maxAge <= 60, cache);
  assert.match(res.headers.get("vary")!, /x-service-public-key/i);
  assert.deepEqual(await res.json(), {
    sampleRate: 0.3,
    minDurationMs: 0,
    urlBlock: ["/admin/**"],
    urlAllow: [],
    triggers: ["error"],
    bufferMs: 60_000,
    network: {
      enabled: true,
      headers: ["content-type", "content-length", "accept"],
      bodyUrls: ["/api/**"],
      vitals: true,
    },
  });
  // each key its own project's
  assert.equal((await (await get(other.key)).json()).sampleRate, 1);
  // a change is answered at once: the service keeps no copy
  await t.db.kysely.updateTable("projects").set({ recording_sample_rate: 0.9 })
    .where("id", "=", project.id).execute();
  assert.equal((await (await get(project.key)).json()).sampleRate, 0.9);
});

Deno.test("sdk config: a missing, malformed or unknown key is 401 with CORS, never cached", async () => {
  await using t = await createTestApp();
  await insertProject(t.db.kysely);
  for (const key of [null, "sp_nothex", randomKey()]) {
    const headers: Record<string, string> = key ? { "x-service-public-key": key } : {};
    const res = await t.app.request(PATH, { headers });
    assert.equal(res.status, 401, String(key));
    assert.equal((await res.json()).kind, "auth");
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("cache-control"), "no-store");
  }
});

Deno.test("sdk config: the CORS preflight allows the key header from any origin", async () => {
  await using t = await createTestApp();
  const res = await t.app.request(PATH, {
    method: "OPTIONS",
    headers: {
      Origin: "https://shop.test",
      "Access-Control-Request-Method": "GET",
      "Access-Control-Request-Headers": "x-service-public-key",
    },
  });
  assert.equal(res.status, 204);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.match(res.headers.get("access-control-allow-headers")!, /x-service-public-key/i);
  assert.match(res.headers.get("access-control-allow-methods")!, /GET/);
});
