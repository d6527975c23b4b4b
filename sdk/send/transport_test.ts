import assert from "node:assert/strict";
import { RETRY_DELAYS_MS, Transport } from "./transport.ts";
import { gunzipSync } from "node:zlib";
import { bodyParts } from "./encoded_event.ts";
import { events, scriptedDeps } from "@/tests/helpers/sdk_doubles.ts";

const CONFIG = { endpoint: "http://svc.test", apiKey: "sp_0123456789abcdef0123456789abcdef" };
const body = (n = 2, padding = 0) => bodyParts("s1", null, JSON.stringify(events(n, 0, padding)));

Deno.test("transport: 5xx and network errors retry after 1 s, 2 s and 4 s", async () => {
  assert.deepEqual([...RETRY_DELAYS_MS], [1000, 2000, 4000]);
  const { deps, sent, delays } = scriptedDeps([500, 0, 503, 204]);
  const result = await new Transport(CONFIG, deps).send(body(), new AbortController().signal);
  assert.deepEqual(result, { outcome: "delivered", status: 204 });
  assert.equal(sent.length, 4);
  assert.deepEqual(delays, [1000, 2000, 4000]);
  // Every attempt carries the same batch.
  assert.equal(new Set(sent.map((r) => JSON.stringify(r.json))).size, 1);
});

Deno.test("transport: after the third retry fails the batch is reported failed", async () => {
  const { deps, sent, delays } = scriptedDeps([500, 500, 500, 500, 204]);
  const result = await new Transport(CONFIG, deps).send(body(), new AbortController().signal);
  assert.equal(result.outcome, "failed");
  assert.equal(sent.length, 4);
  assert.deepEqual(delays, [1000, 2000, 4000]);
});

Deno.test("transport: a 408 (body timed out on the way) is retried like a network error", async () => {
  const { deps, sent, delays } = scriptedDeps([408, 408, 204]);
  const result = await new Transport(CONFIG, deps).send(body(), new AbortController().signal);
  assert.deepEqual(result, { outcome: "delivered", status: 204 });
  assert.equal(sent.length, 3);
  assert.deepEqual(delays, [1000, 2000]);
});

Deno.test("transport: a 4xx is never retried", async () => {
  const { deps, sent, delays } = scriptedDeps([400]);
  const result = await new Transport(CONFIG, deps).send(body(), new AbortController().signal);
  assert.deepEqual(result, { outcome: "rejected", status: 400 });
  assert.equal(sent.length, 1);
  assert.deepEqual(delays, []);
});

Deno.test("transport: an abort during a backoff wait stops the retries", async () => {
  const { deps, sent } = scriptedDeps([500, 500]);
  const abort = new AbortController();
  deps.setTimeout = () => {
    abort.abort();
    return 1;
  };
  const result = await new Transport(CONFIG, deps).send(body(), abort.signal);
  assert.equal(result.outcome, "aborted");
  assert.equal(sent.length, 1);
});

Deno.test("transport: bodies over 1 KB are gzipped, smaller ones are plain JSON", async () => {
  const { deps, sent } = scriptedDeps();
  const transport = new Transport(CONFIG, deps);
  await transport.send(body(1), new AbortController().signal);
  await transport.send(body(50, 40), new AbortController().signal);
  assert.equal(sent[0].url, "http://svc.test/api/ingest");
  assert.equal(sent[0].headers["x-service-public-key"], CONFIG.apiKey);
  assert.equal(sent[0].headers["content-type"], "application/json");
  assert.equal(sent[0].headers["content-encoding"], undefined);
  assert.equal(sent[1].headers["content-encoding"], "gzip");
  assert.ok(sent[1].bytes < JSON.stringify(sent[1].json).length);
  assert.equal((sent[1].json.events as unknown[]).length, 50);
});

Deno.test("transport: a gzipped body is a member per part, the events' array alone in the second", async () => {
  const { deps } = scriptedDeps();
  let wire: Uint8Array = new Uint8Array();
  const fetch = deps.fetch;
  deps.fetch = (input, init) => {
    wire = init!.body as Uint8Array;
    return fetch(input, init);
  };
  const parts = body(50, 40);
  await new Transport(CONFIG, deps).send(parts, new AbortController().signal);
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assert.equal(text(gunzipSync(wire)), parts.join(""));
  // Each member alone: gzip's ISIZE ends each, so the members are cut where each inflates whole.
  const members = await Promise.all(parts.map((p) => deps.gzip!(new TextEncoder().encode(p))));
  let at = 0;
  members.forEach((member, i) => {
    assert.deepEqual(wire.subarray(at, at + member.length), member);
    assert.equal(text(gunzipSync(member)), parts[i]);
    at += member.length;
  });
  assert.equal(at, wire.length);
});

Deno.test("transport: without CompressionStream large bodies go uncompressed", async () => {
  const { deps, sent } = scriptedDeps();
  deps.gzip = null;
  await new Transport(CONFIG, deps).send(body(50, 40), new AbortController().signal);
  assert.equal(sent[0].headers["content-encoding"], undefined);
});

Deno.test("transport: cancel posts the session id to /api/sessions/cancel with the key", async () => {
  const { deps, sent } = scriptedDeps();
  const status = await new Transport(CONFIG, deps).cancel("s1");
  assert.equal(status, 204);
  assert.equal(sent[0].url, "http://svc.test/api/sessions/cancel");
  assert.equal(sent[0].headers["x-service-public-key"], CONFIG.apiKey);
  assert.deepEqual(sent[0].json, { sessionId: "s1" });
});
