// Ingest keeps a session's network summary in the statement that stores its batch: failing
// requests counted, the slowest request's ms, web vitals' ratings; a retry adds nothing, and a
// malformed request is dropped without its batch.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { customEvent, postIngest, recordedEvents, type TestEvent } from "@/tests/helpers/ingest.ts";
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
  const project = await insertProject(t.db.kysely);
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
