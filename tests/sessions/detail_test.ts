// GET/DELETE /api/sessions/{id}, its events and markers, the summary, roles and organization scope.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import {
  customEvent,
  gunzipJson,
  METADATA,
  postIngest,
  recordedEvents,
} from "@/tests/helpers/ingest.ts";
import { sessionsWorld } from "@/tests/helpers/sessions_api.ts";
import { insertBatch, insertSession } from "@/tests/helpers/sessions_factories.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

/** One session recorded through ingest: 3 batches, a url marker and an identity marker. */
async function recorded(t: Awaited<ReturnType<typeof createTestApp>>, key: string) {
  const sessionId = crypto.randomUUID();
  const batches = [
    recordedEvents(4, T0),
    [
      ...recordedEvents(3, T0 + 10_000),
      customEvent("service:identity", { userId: "u-7" }, T0 + 12_500),
    ],
    [customEvent("service:url", { url: "https://shop.test/cart", pathname: "/cart" }, T0 + 20_000)],
  ];
  for (const [i, events] of batches.entries()) {
    const metadata = i === 0
      ? { ...METADATA, userIdentity: { userId: "u-7", traits: { name: "Grace" } } }
      : undefined;
    const res = await postIngest(t.app, { sessionId, events, metadata }, { key });
    assert.equal(res.status, 204);
  }
  const row = await t.db.kysely.selectFrom("sessions").selectAll()
    .where("external_id", "=", sessionId).executeTakeFirstOrThrow();
  return { row, batches };
}

Deno.test("session detail: every stored field, the tracked user and markers", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const { row } = await recorded(t, w.alpha.key);
  const { res, body } = await w.get(`/api/sessions/${row.id}`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual({ ...body, markers: undefined }, {
    id: row.id,
    externalId: row.external_id,
    projectId: w.alpha.id,
    projectName: "Alpha",
    url: METADATA.url,
    referrer: METADATA.referrer,
    userAgent: METADATA.userAgent,
    browser: "Chrome",
    os: "Linux",
    device: "desktop",
    screenWidth: 1280,
    screenHeight: 800,
    language: "en-GB",
    createdAt: row.created_at.toISOString(),
    startedAt: new Date(T0).toISOString(),
    endedAt: new Date(T0 + 20_000).toISOString(),
    duration: 20_000,
    eventCount: 9,
    trackedUserId: row.tracked_user_id,
    trackedUser: {
      id: row.tracked_user_id,
      externalId: "u-7",
      displayName: "Grace", // the name trait, with no name set anywhere
      traits: { name: "Grace" },
    },
    recordingReason: "sampled",
    triggeredAt: null,
    pinned: false,
    markers: undefined,
  });
  assert.deepEqual(
    body.markers.map((m: { kind: string; timestamp: number }) => [m.kind, m.timestamp]),
    [
      ["url", T0],
      ["identity", T0 + 12_500],
      ["url", T0 + 20_000],
    ],
  );
});

Deno.test("session events: base64 of the stored gzip, ordered by firstTimestamp then id", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const { row, batches } = await recorded(t, w.alpha.key);
  // A batch stored later with an earlier firstTimestamp, and two with equal firstTimestamp.
  const early = await insertBatch(w.db, row, [{ timestamp: T0 - 5_000 }]);
  const tieA = await insertBatch(w.db, row, [{ timestamp: T0 + 30_000 }]);
  const tieB = await insertBatch(w.db, row, [{ timestamp: T0 + 30_000 }]);
  const { res, body } = await w.get(`/api/sessions/${row.id}/events`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal(body.nextCursor, null);
  assert.equal(body.batches.length, 6);
  assert.equal(body.batches[0].id, String(early.id));
  assert.deepEqual(body.batches.slice(4).map((b: { id: string }) => b.id), [
    String(tieA.id),
    String(tieB.id),
  ]);
  const stored = await w.db.selectFrom("event_batches").select(["id", "data"])
    .where("session_external_id", "=", row.external_id).execute();
  for (const [i, batch] of body.batches.slice(1, 4).entries()) {
    const bytes = Uint8Array.fromBase64(batch.data);
    const own = stored.find((s) => String(s.id) === batch.id)!;
    assert.deepEqual(bytes, new Uint8Array(own.data!));
    assert.deepEqual(await gunzipJson(bytes), batches[i]);
    assert.equal(batch.eventCount, batches[i].length);
    assert.equal(batch.firstTimestamp, Math.min(...batches[i].map((e) => e.timestamp)));
    assert.equal(batch.lastTimestamp, Math.max(...batches[i].map((e) => e.timestamp)));
  }
});

Deno.test("session events: a session without batches answers an empty list", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  const session = await insertSession(w.db, w.alpha);
  const { res, body } = await w.get(`/api/sessions/${session.id}/events`);
  assert.equal(res.status, 200);
  assert.deepEqual(body, { batches: [], nextCursor: null });
});

Deno.test("session markers: kind filters on the server; any other kind is 400", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const { row } = await recorded(t, w.alpha.key);
  const kinds = async (q: string) => {
    const { res, body } = await w.get(`/api/sessions/${row.id}/markers${q}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    return body.markers.map((m: { kind: string }) => m.kind);
  };
  assert.deepEqual(await kinds(""), ["url", "identity", "url"]);
  assert.deepEqual(await kinds("?kind=url"), ["url", "url"]);
  const identity = (await w.get(`/api/sessions/${row.id}/markers?kind=identity`)).body;
  assert.deepEqual(identity, {
    markers: [{ timestamp: T0 + 12_500, kind: "identity", data: { userId: "u-7" } }],
  });
  for (const kind of ["idle", "URL", ""]) {
    const { res, body } = await w.get(`/api/sessions/${row.id}/markers?kind=${kind}`);
    assert.equal(res.status, 400, kind);
    assert.equal(body.kind, "validation");
  }
});

Deno.test("session delete: ADMIN deletes with batches and markers (204); VIEWER gets 403", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const { row } = await recorded(t, w.alpha.key);
  const res = await call(t.app, "DELETE", `/api/sessions/${row.id}`, { cookie: w.me.cookie });
  assert.equal(res.status, 403);
  assert.equal((await res.json()).kind, "forbidden");
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: w.me.organizationId });
  const ok = await call(t.app, "DELETE", `/api/sessions/${row.id}`, { cookie: admin.cookie });
  assert.equal(ok.status, 204);
  assert.equal(await ok.text(), "");
  const left = async (table: "sessions" | "event_batches" | "markers") =>
    (await w.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow()).n;
  assert.equal(Number(await left("sessions")), 0);
  assert.equal(Number(await left("event_batches")), 0);
  assert.equal(Number(await left("markers")), 0);
  const again = await call(t.app, "DELETE", `/api/sessions/${row.id}`, { cookie: admin.cookie });
  assert.equal(again.status, 404);
});

Deno.test("sessions: another organization's session is 404 on every endpoint", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t);
  const theirs = await insertSession(w.db, w.foreign);
  for (const id of [theirs.id, "no-such-session"]) {
    for (const path of ["", "/events", "/markers", "/markers?kind=url"]) {
      const { res, body } = await w.get(`/api/sessions/${id}${path}`);
      assert.equal(res.status, 404, path);
      assert.equal(body.kind, "not_found");
    }
    const del = await call(t.app, "DELETE", `/api/sessions/${id}`, { cookie: w.me.cookie });
    assert.equal(del.status, 404);
  }
  assert.ok(await w.db.selectFrom("sessions").where("id", "=", theirs.id).executeTakeFirst());
  for (const path of ["", "/events", "/markers"]) {
    const res = await call(t.app, "GET", `/api/sessions/${theirs.id}${path}`);
    assert.equal(res.status, 401);
  }
});

Deno.test("sessions summary: totals, average and activeToday for the active organization", async () => {
  await using t = await createTestApp();
  const w = await sessionsWorld(t, "VIEWER");
  const day = 86_400_000;
  const midnight = Math.floor(Date.now() / day) * day;
  await insertSession(w.db, w.alpha, {
    createdAt: new Date(midnight - 2 * day),
    durationMs: 1_000,
  });
  // Ends exactly at 00:00 UTC today: active today.
  await insertSession(w.db, w.alpha, { createdAt: new Date(midnight - 4_000), durationMs: 4_000 });
  await insertSession(w.db, w.beta, { createdAt: new Date(midnight - day), durationMs: null });
  await insertSession(w.db, w.foreign, { durationMs: 9_000 });
  const { res, body } = await w.get("/api/sessions/summary");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.deepEqual(body, {
    totalSessions: 3,
    totalDuration: 5_000,
    avgDuration: 1_667,
    activeToday: 2,
  });
  const alpha = (await w.get(`/api/sessions/summary?projectIds=${w.alpha.id}`)).body;
  assert.deepEqual(alpha, {
    totalSessions: 2,
    totalDuration: 5_000,
    avgDuration: 2_500,
    activeToday: 1,
  });
  const none = (await w.get(`/api/sessions/summary?projectIds=${w.foreign.id}`)).body;
  assert.deepEqual(none, { totalSessions: 0, totalDuration: 0, avgDuration: 0, activeToday: 0 });
  assert.equal((await w.get("/api/sessions/summary?range=week")).res.status, 400);
});
