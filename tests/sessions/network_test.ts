// GET /api/sessions/:id/network lists a session's recorded requests without their bodies, within
// NETWORK_LIST_LIMITS (requests and bytes, `truncated` past them); GET …/network/:index has one
// request's bodies. One list answer once weighed 360 MB and 8 of them grew the process by 3.6 GB.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { postIngest, recordedEvents, type TestEvent } from "@/tests/helpers/ingest.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { call } from "@/tests/helpers/auth.ts";
import { T0 } from "@/tests/helpers/times.ts";
import { sessionNetworkList } from "@/core/sessions/network.ts";
import type { Viewer } from "@/core/auth/viewer.ts";

const BODY = "x".repeat(30_000);

const requests = (n: number, from: number, timestamp: number): TestEvent => ({
  type: 6,
  data: {
    plugin: "rrweb/network@1",
    payload: {
      requests: Array.from({ length: n }, (_, i) => ({
        name: `https://shop.example/api/orders/${from + i}`,
        method: "POST",
        initiatorType: "fetch",
        status: 200,
        startTime: 10,
        endTime: 40,
        timestamp: timestamp + i,
        requestBody: `{"order":${from + i}}`,
        responseBody: BODY,
      })),
    },
  },
  timestamp,
});

async function recordedSession(count: number) {
  const t = await createTestApp();
  const me = await signedInUser(t);
  const project = await insertProject(t.db.kysely, {
    organizationId: me.organizationId,
    network: true,
  });
  const sessionId = crypto.randomUUID();
  const events = [...recordedEvents(2, T0)];
  for (let i = 0; i < count; i += 10) {
    events.push(requests(Math.min(10, count - i), i, T0 + 2000 + i));
  }
  assert.equal((await postIngest(t.app, { sessionId, events }, { key: project.key })).status, 204);
  const { id } = await t.db.kysely.selectFrom("sessions").select("id")
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
  const get = (path: string) => call(t.app, "GET", path, { cookie: me.cookie });
  const viewer: Viewer = {
    userId: me.user.id,
    email: me.user.email,
    activeOrganizationId: me.organizationId,
    role: "OWNER",
  };
  return { t, id, get, viewer };
}

Deno.test("sessions network: the list carries no body, says which exist, and one request's bodies come by its index", async () => {
  const { t, id, get } = await recordedSession(20);
  await using _ = t;
  const res = await get(`/api/sessions/${id}/network`);
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.ok(!text.includes(BODY.slice(0, 100)), "no response body in the list");
  const list = JSON.parse(text);
  assert.equal(list.truncated, false);
  assert.equal(list.data.length, 20);
  const seventh = list.data.find((r: { url: string }) => r.url.endsWith("/orders/7"));
  assert.equal(seventh.hasRequestBody, true);
  assert.equal(seventh.hasResponseBody, true);
  assert.equal(seventh.requestBody, undefined);

  const one = await get(`/api/sessions/${id}/network/${seventh.index}`);
  assert.equal(one.status, 200);
  const detail = await one.json();
  assert.equal(detail.url, seventh.url);
  assert.equal(detail.requestBody, '{"order":7}');
  assert.equal(detail.responseBody.length, BODY.length);

  assert.equal((await get(`/api/sessions/${id}/network/20`)).status, 404);
  assert.equal((await get(`/api/sessions/${id}/network/-1`)).status, 400);
  assert.equal((await get(`/api/sessions/${id}/network/x`)).status, 400);
});

Deno.test("sessions network: an answer stops at its byte limit, at and on both sides of it, with truncated", async () => {
  const { t, id, viewer } = await recordedSession(20);
  await using _ = t;
  const deps = { db: t.deps.db };
  const whole = await sessionNetworkList(deps, viewer, id);
  const bytes = whole.data.reduce((n, r) => n + Buffer.byteLength(JSON.stringify(r)) + 1, 0);
  const at = await sessionNetworkList(deps, viewer, id, { requests: 5000, bytes });
  assert.deepEqual([at.data.length, at.truncated], [20, false]);
  const under = await sessionNetworkList(deps, viewer, id, { requests: 5000, bytes: bytes - 1 });
  assert.deepEqual([under.data.length, under.truncated], [19, true]);
  const over = await sessionNetworkList(deps, viewer, id, { requests: 5000, bytes: bytes + 1 });
  assert.deepEqual([over.data.length, over.truncated], [20, false]);
  const counted = await sessionNetworkList(deps, viewer, id, { requests: 19, bytes });
  assert.deepEqual([counted.data.length, counted.truncated], [19, true]);
});
