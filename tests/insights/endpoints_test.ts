// /api/insights' failing endpoints: requests answered 5xx or not at all, grouped by method and
// path with ids folded, ranked by the sessions that met them; another organization's never count.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";

const T0 = Date.now() - 60_000;
const request = (method: string, url: string, status: number, timestamp: number) => ({
  type: 6,
  timestamp: timestamp + 50,
  data: {
    plugin: "rrweb/network@1",
    payload: {
      requests: [{
        name: url,
        method,
        initiatorType: "fetch",
        status,
        startTime: 1,
        endTime: 41,
        timestamp,
      }],
    },
  },
});

Deno.test("insights: failing endpoints fold ids and rank by sessions; 4xx and others' do not count", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  await t.db.kysely.updateTable("projects").set({ network_enabled: true }).execute();
  const post = async (key: string, events: unknown[]) => {
    const body = {
      sessionId: crypto.randomUUID(),
      events: [...recordedEvents(2, T0), ...events],
      metadata: METADATA,
    };
    assert.equal((await postIngest(t.app, body, { key })).status, 204);
  };
  const order = (id: number, status: number, at: number) =>
    request("GET", `https://shop.test/api/orders/${id}?x=1`, status, T0 + at);
  await post(w.alpha.key, [order(1, 500, 100), order(2, 502, 200)]);
  await post(w.alpha.key, [order(3, 0, 300)]);
  await post(w.beta.key, [request("POST", "https://shop.test/api/login", 500, T0 + 400)]);
  await post(w.alpha.key, [order(4, 404, 500)]); // not a failure of the server
  await post(w.foreign.key, [order(5, 500, 600), order(6, 500, 700)]);

  const { res, body } = await w.get("/api/insights?range=7d");
  assert.equal(res.status, 200);
  assert.deepEqual(body.endpoints, [
    {
      endpoint: "GET /api/orders/:id",
      sessions: 2,
      failures: 3,
      lastStatus: 0,
      lastSeenAt: new Date(T0 + 300).toISOString(),
    },
    {
      endpoint: "POST /api/login",
      sessions: 1,
      failures: 1,
      lastStatus: 500,
      lastSeenAt: new Date(T0 + 400).toISOString(),
    },
  ]);
  const only = await w.get(`/api/insights?range=7d&projectIds=${w.beta.id}`);
  assert.deepEqual(only.body.endpoints.map((e: { endpoint: string }) => e.endpoint), [
    "POST /api/login",
  ]);
});
