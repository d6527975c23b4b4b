// Bad input on the public ingest surface: each request gets the right status, a JSON error body
// and CORS headers, and leaves the database exactly as it was.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject, randomKey } from "@/tests/helpers/factories.ts";
import {
  gzipBytes,
  ingestRowCounts,
  METADATA,
  postIngest,
  type PostOptions,
  recordedEvents,
} from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);
const validBody = () => ({
  sessionId: crypto.randomUUID(),
  events: recordedEvents(3, T0),
  metadata: METADATA,
});

/** Seeds one accepted batch, sends the bad request, and checks status, body, CORS and counts. */
async function assertRejected(
  expected: { status: number; kind: string },
  request: (key: string) => { body?: unknown; options?: PostOptions },
  prepare?: (t: Awaited<ReturnType<typeof createTestApp>>, key: string) => Promise<void>,
) {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  assert.equal((await postIngest(t.app, validBody(), { key: project.key })).status, 204);
  await prepare?.(t, project.key);
  const before = await ingestRowCounts(t.db.kysely);

  const { body, options } = request(project.key);
  const res = await postIngest(t.app, body, options);

  assert.equal(res.status, expected.status);
  assert.match(res.headers.get("content-type") ?? "", /application\/json/);
  const json = await res.json();
  assert.equal(json.kind, expected.kind);
  assert.equal(typeof json.message, "string");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(await ingestRowCounts(t.db.kysely), before);
  return { json, logs: t.logs };
}

const auth = { status: 401, kind: "auth" };
const invalid = { status: 400, kind: "validation" };

Deno.test("ingest rejects: a missing key is 401 and logged", async () => {
  const { logs } = await assertRejected(auth, () => ({ body: validBody(), options: {} }));
  assert.ok(logs.some((l) => l.tag === "ingest:auth:invalid_key" && l.level === "warning"));
});

Deno.test("ingest rejects: a malformed key is 401", async () => {
  for (
    const key of ["sp_123", "pk_" + "a".repeat(32), "sp_" + "A".repeat(32), "sp_" + "g".repeat(32)]
  ) {
    await assertRejected(auth, () => ({ body: validBody(), options: { key } }));
  }
});

Deno.test("ingest rejects: an unknown key is 401", async () => {
  await assertRejected(auth, () => ({ body: validBody(), options: { key: randomKey() } }));
});

Deno.test("ingest rejects: an unknown key with a bad body is 401, not 400", async () => {
  await assertRejected(auth, () => ({ options: { key: randomKey(), rawBody: '{"sessionId": ' } }));
});

Deno.test("ingest rejects: an unknown key is 401 before the body is read", async () => {
  await using t = await createTestApp();
  // 10 MiB offered in 64 KiB chunks; the stream counts what the server pulls.
  const CHUNK = 64 * 1024;
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= 10 * 1024 * 1024) return controller.close();
      pulled += CHUNK;
      controller.enqueue(new Uint8Array(CHUNK).fill(0x20));
    },
  }, { highWaterMark: 0 });
  const res = await t.app.request("/api/ingest", {
    method: "POST",
    headers: { "Content-Type": "application/json", "x-service-public-key": randomKey() },
    body,
    // @ts-ignore: Deno's RequestInit takes duplex for a streamed body
    duplex: "half",
  });
  assert.equal(res.status, 401);
  assert.equal((await res.json()).message, "unknown public key");
  assert.equal(pulled, 0, `the server read ${pulled} bytes of the body`);
  await body.cancel().catch(() => {});
});

Deno.test("ingest rejects: a regenerated project's old key is refused at once, the new one works", async () => {
  const newKey = randomKey();
  await assertRejected(
    auth,
    (oldKey) => ({ body: validBody(), options: { key: oldKey } }),
    async (t, oldKey) => {
      await t.db.kysely.updateTable("projects").set({ key: newKey }).where("key", "=", oldKey)
        .execute();
    },
  );
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely, { key: newKey });
  assert.equal((await postIngest(t.app, validBody(), { key: project.key })).status, 204);
});

Deno.test("ingest rejects: invalid JSON is 400", async () => {
  await assertRejected(invalid, (key) => ({ options: { key, rawBody: '{"sessionId": ' } }));
});

Deno.test("ingest rejects: a body that is not gzip while saying so is 400", async () => {
  await assertRejected(invalid, (key) => ({
    options: {
      key,
      rawBody: JSON.stringify(validBody()),
      headers: { "Content-Encoding": "gzip" },
    },
  }));
});

Deno.test("ingest rejects: a gzip bomb is 413 (decompressed cap)", async () => {
  // 80 MiB of spaces inflates from ~80 KB: JSON-valid padding that only a cap stops.
  const json = new TextEncoder().encode(JSON.stringify(validBody()) + " ".repeat(80 * 1024 * 1024));
  const bomb = await gzipBytes(json);
  assert.ok(bomb.byteLength < 1024 * 1024);
  await assertRejected({ status: 413, kind: "payload_too_large" }, (key) => ({
    options: { key, rawBody: bomb, headers: { "Content-Encoding": "gzip" } },
  }));
});

Deno.test("ingest rejects: a body over 10 MiB is 413", async () => {
  const body = validBody();
  const padded = JSON.stringify(body).replace(
    '"events":[',
    `"events":[{"type":3,"data":{"text":"${"x".repeat(11 * 1024 * 1024)}"},"timestamp":${T0}},`,
  );
  await assertRejected({ status: 413, kind: "payload_too_large" }, (key) => ({
    options: { key, rawBody: padded },
  }));
});

Deno.test("ingest rejects: 501 events is 400", async () => {
  const { json } = await assertRejected(invalid, (key) => ({
    body: { ...validBody(), events: recordedEvents(501, T0) },
    options: { key },
  }));
  assert.ok(json.issues.some((i: { path: string }) => i.path === "events"));
});

Deno.test("ingest rejects: wrong field types are 400 with the offending paths", async () => {
  const cases: Array<[string, (b: ReturnType<typeof validBody>) => unknown]> = [
    [
      "events.1.timestamp",
      (b) => ({ ...b, events: [b.events[0], { ...b.events[1], timestamp: String(T0) }] }),
    ],
    ["events.0.timestamp", (b) => ({ ...b, events: [{ ...b.events[0], timestamp: T0 + 0.5 }] })],
    ["metadata.screenWidth", (b) => ({ ...b, metadata: { ...METADATA, screenWidth: -1 } })],
    ["metadata.screenHeight", (b) => ({ ...b, metadata: { ...METADATA, screenHeight: -800 } })],
    ["sessionId", (b) => ({ ...b, sessionId: "not-a-uuid" })],
    ["events", (b) => ({ ...b, events: "many" })],
    ["events.0.type", (b) => ({ ...b, events: [{ ...b.events[0], type: "meta" }] })],
    [
      "metadata.userIdentity.userId",
      (b) => ({ ...b, metadata: { ...METADATA, userIdentity: { userId: 7, traits: {} } } }),
    ],
  ];
  for (const [path, mutate] of cases) {
    const { json } = await assertRejected(
      invalid,
      (key) => ({ body: mutate(validBody()), options: { key } }),
    );
    assert.ok(
      json.issues.some((i: { path: string }) => i.path === path),
      `${path} in ${JSON.stringify(json.issues)}`,
    );
  }
});

Deno.test("ingest rejects: an unknown Content-Encoding is 415", async () => {
  await assertRejected({ status: 415, kind: "unsupported" }, (key) => ({
    options: { key, rawBody: JSON.stringify(validBody()), headers: { "Content-Encoding": "br" } },
  }));
});

Deno.test("ingest rejects: a bad key wins over a bad body", async () => {
  await assertRejected(auth, () => ({ options: { key: "nope", rawBody: "{" } }));
});
