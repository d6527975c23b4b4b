// Ingest keeps a session's network summary in the statement that stores its batch: failing
// requests counted, the slowest request's ms, web vitals' ratings; a retry adds nothing, and a
// malformed request is dropped without its batch. A project whose network capture is off keeps no
// request at all.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { decodePoolOf } from "@/api/ingest/decode_pool.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import {
  customEvent,
  gunzipJson,
  postIngest,
  recordedEvents,
  type TestEvent,
} from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

const requests = (list: Record<string, unknown>[], timestamp: number): TestEvent => ({
  type: 6,
  data: {
    plugin: "rrweb/network@1",
    payload: {
      requests: list.map((r) => ({
        name: "https://shop.example/api/orders/7",
        method: "GET",
        initiatorType: "fetch",
        startTime: 10,
        timestamp: T0 + 10,
        ...r,
      })),
    },
  },
  timestamp,
});

Deno.test("ingest: failing requests, the slowest one and web vitals summarise the session; a retry adds none", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely, { network: true });
  const sessionId = crypto.randomUUID();
  const first = {
    sessionId,
    events: [
      ...recordedEvents(3, T0),
      requests([{ status: 500, endTime: 310 }, { status: 200, endTime: 1510 }], T0 + 2000),
      requests([{ status: "bad" }], T0 + 2100),
      customEvent("service:web_vital", { name: "lcp", value: 5100, at: T0 + 900 }, T0 + 3000),
    ],
  };
  assert.equal((await postIngest(t.app, first, { key: project.key })).status, 204);
  assert.equal((await postIngest(t.app, first, { key: project.key })).status, 204); // a retry
  const later = {
    sessionId,
    events: [
      requests([{ status: 0, endTime: 20 }], T0 + 9000),
      customEvent("service:web_vital", { name: "cls", value: 0.01 }, T0 + 9100),
      customEvent("service:web_vital", { name: "lcp", value: 5000 }, T0 + 9200),
    ],
  };
  assert.equal((await postIngest(t.app, later, { key: project.key })).status, 204);
  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.network_error_count, 2);
  assert.equal(session.max_request_ms, 1500);
  assert.deepEqual(session.web_vitals, ["cls:good", "lcp:poor"]);
  assert.equal(session.event_count, 3 + 1 + 1 + 3); // the bad request's event alone left out
  const markers = await t.db.kysely.selectFrom("markers").select(["kind", "ts"])
    .where("kind", "in", ["network_error", "web_vital"]).orderBy("ts").execute();
  assert.deepEqual(markers.map((m) => [m.kind, Number(m.ts)]), [
    ["network_error", T0 + 10],
    ["network_error", T0 + 10],
    ["web_vital", T0 + 900],
    ["web_vital", T0 + 9100],
    ["web_vital", T0 + 9200],
  ]);
});

Deno.test("ingest: a project whose network capture is off keeps no request, small body or large; turned on, it keeps them at once", async () => {
  await using t = await createTestApp();
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const workers = decodePoolOf(t.deps)!;
  const network = async (enabled: boolean) => {
    const res = await call(t.app, "PATCH", `/api/projects/${project.id}`, {
      cookie: owner.cookie,
      body: { network: { enabled } },
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
  };
  const failing = (at: number) =>
    requests([{ status: 500, endTime: 310 }, { status: 200, endTime: 40 }], at);
  const post = async (events: TestEvent[]) => {
    const sessionId = crypto.randomUUID();
    const res = await postIngest(t.app, { sessionId, events }, { key: project.key });
    assert.equal(res.status, 204);
    const session = await t.db.kysely.selectFrom("sessions").selectAll()
      .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
    const batches = await t.db.kysely.selectFrom("event_batches").select("data")
      .where("session_external_id", "=", sessionId).orderBy("id").execute();
    const stored = (await Promise.all(batches.map((b) => gunzipJson(b.data!))))
      .flat() as TestEvent[];
    const markers = await t.db.kysely.selectFrom("markers").select("kind")
      .where("session_id", "=", session.id).where("kind", "=", "network_error").execute();
    return { session, stored, markers };
  };
  const small = [...recordedEvents(3, T0), failing(T0 + 2000)];
  // Past 32 KiB on the wire: decoded in a worker (api/ingest/ingest_body.ts).
  const pad = customEvent("padding", { text: "p".repeat(40_000) }, T0 + 2500);
  const large = [...recordedEvents(3, T0), pad, failing(T0 + 3000)];

  // Off (the default): the requests are not stored, counted or marked; the other events are.
  for (const events of [small, large]) {
    const decoded = workers.decoded;
    const { session, stored, markers } = await post(events);
    assert.equal(workers.decoded - decoded, events === large ? 1 : 0);
    assert.deepEqual(stored, events.filter((e) => e.type !== 6));
    assert.equal(session.event_count, events.length - 1);
    assert.equal(session.network_error_count, 0);
    assert.equal(session.max_request_ms, 0);
    assert.deepEqual(markers, []);
  }

  // On: kept from the next batch on (this process forgets what it knew of the key).
  await network(true);
  for (const events of [small, large]) {
    const { session, stored, markers } = await post(events);
    assert.equal(stored.length, events.length);
    assert.equal(stored.filter((e) => e.type === 6).length, 1);
    assert.equal(session.network_error_count, 1);
    assert.equal(session.max_request_ms, 300);
    assert.equal(markers.length, 1);
  }

  // Off again: none from the next batch on.
  await network(false);
  const { stored, session } = await post(small);
  assert.deepEqual(stored, recordedEvents(3, T0));
  assert.equal(session.network_error_count, 0);
});
