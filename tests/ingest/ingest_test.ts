// POST /api/ingest: every rule for accepted batches (session upsert, tracked-user link, batch,
// markers; docs/decisions.md "Ingest").
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import {
  customEvent,
  gunzipJson,
  ingestRowCounts,
  METADATA,
  postIngest,
  recordedEvents,
} from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

async function setup() {
  const t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  return Object.assign(t, { project, key: project.key });
}

Deno.test("ingest: a first batch creates the session with full metadata and a url marker at its start", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  const events = recordedEvents(10, T0);

  const res = await postIngest(t.app, { sessionId, events, metadata: METADATA }, { key: t.key });

  assert.equal(res.status, 204);
  assert.equal(await res.text(), "");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal(res.headers.get("x-frame-options"), "DENY");
  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.external_id, sessionId);
  assert.equal(session.project_id, t.project.id);
  assert.equal(session.organization_id, t.project.organization_id);
  assert.equal(session.url, METADATA.url);
  assert.equal(session.referrer, METADATA.referrer);
  assert.equal(session.user_agent, METADATA.userAgent);
  assert.equal(session.screen_width, 1280);
  assert.equal(session.screen_height, 800);
  assert.equal(session.language, "en-GB");
  assert.equal(session.started_at.getTime(), T0);
  assert.equal(session.ended_at?.getTime(), T0 + 9000);
  assert.equal(session.duration, 9000);
  assert.equal(session.event_count, 10);
  assert.equal(session.tracked_user_id, null);
  const markers = await t.db.kysely.selectFrom("markers").selectAll().execute();
  assert.equal(markers.length, 1);
  assert.equal(markers[0].session_id, session.id);
  assert.equal(markers[0].kind, "url");
  assert.equal(markers[0].ts, T0);
  assert.deepEqual(markers[0].data, { url: METADATA.url, pathname: "/products/42" });
  assert.ok(t.logs.some((l) => l.tag === "ingest:batch:received" && l.level === "info"));
});

Deno.test("ingest: later batches move endedAt forward and add to eventCount; startedAt only moves back", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  await postIngest(t.app, { sessionId, events: recordedEvents(5, T0), metadata: METADATA }, {
    key: t.key,
  });
  const later = recordedEvents(3, T0 + 60_000);
  assert.equal((await postIngest(t.app, { sessionId, events: later }, { key: t.key })).status, 204);
  // A delayed batch from before the others arrives last: it widens the start, not the end.
  const early = recordedEvents(2, T0 - 5_000);
  assert.equal((await postIngest(t.app, { sessionId, events: early }, { key: t.key })).status, 204);

  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.event_count, 10);
  assert.equal(session.started_at.getTime(), T0 - 5_000);
  assert.equal(session.ended_at?.getTime(), T0 + 62_000);
  assert.equal(session.duration, 67_000);
  assert.equal(session.url, METADATA.url, "metadata of the first batch stays");
  const counts = await ingestRowCounts(t.db.kysely);
  assert.deepEqual(counts, { sessions: 1, eventBatches: 3, markers: 1, trackedUsers: 0 });
});

Deno.test("ingest: 20 concurrent first batches for one session create exactly one session", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  const responses = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      postIngest(t.app, {
        sessionId,
        events: recordedEvents(5, T0 + i * 10_000),
        metadata: METADATA,
      }, { key: t.key })),
  );
  assert.deepEqual(responses.map((r) => r.status), Array(20).fill(204));
  const counts = await ingestRowCounts(t.db.kysely);
  assert.equal(counts.sessions, 1);
  assert.equal(counts.eventBatches, 20);
  assert.equal(counts.markers, 1, "one initial url marker");
  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.event_count, 100);
  assert.equal(session.started_at.getTime(), T0);
  assert.equal(session.ended_at?.getTime(), T0 + 19 * 10_000 + 4_000);
});

Deno.test("ingest: the same externalId in two projects makes two sessions", async () => {
  await using t = await setup();
  const other = await insertProject(t.db.kysely);
  const sessionId = crypto.randomUUID();
  const body = { sessionId, events: recordedEvents(3, T0), metadata: METADATA };
  await postIngest(t.app, body, { key: t.key });
  await postIngest(t.app, body, { key: other.key });
  assert.equal((await ingestRowCounts(t.db.kysely)).sessions, 2);
});

Deno.test("ingest: userIdentity creates, updates and relinks tracked users; no identity never unlinks", async () => {
  await using t = await setup();
  const db = t.db.kysely;
  const sessionId = crypto.randomUUID();
  const identify = (userId: string, traits: Record<string, unknown>) => ({
    ...METADATA,
    userIdentity: { userId, traits },
  });

  await postIngest(t.app, {
    sessionId,
    events: recordedEvents(2, T0),
    metadata: identify("user-1", { plan: "free", name: "Ada" }),
  }, { key: t.key });
  const ada = await db.selectFrom("tracked_users").selectAll().executeTakeFirstOrThrow();
  assert.equal(ada.external_id, "user-1");
  assert.equal(ada.project_id, t.project.id);
  assert.deepEqual(ada.traits, { plan: "free", name: "Ada" });
  let session = await db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.tracked_user_id, ada.id);
  assert.ok(t.logs.some((l) => l.tag === "ingest:tracked_user:linked" && l.level === "debug"));

  // Same user, new traits: updated in place (merged), still linked.
  await postIngest(t.app, {
    sessionId,
    events: recordedEvents(1, T0 + 5_000),
    metadata: identify("user-1", { plan: "pro" }),
  }, { key: t.key });
  const updated = await db.selectFrom("tracked_users").selectAll().executeTakeFirstOrThrow();
  assert.equal(updated.id, ada.id);
  assert.deepEqual(updated.traits, { plan: "pro", name: "Ada" });

  // A batch without identity leaves the link alone.
  await postIngest(t.app, { sessionId, events: recordedEvents(1, T0 + 6_000) }, { key: t.key });
  session = await db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.tracked_user_id, ada.id);

  // Re-identifying with another userId relinks the session to a new tracked user.
  const linkedBefore = t.logs.filter((l) => l.tag === "ingest:tracked_user:linked").length;
  await postIngest(t.app, {
    sessionId,
    events: recordedEvents(1, T0 + 7_000),
    metadata: identify("user-2", {}),
  }, { key: t.key });
  const bob = await db.selectFrom("tracked_users").selectAll().where("external_id", "=", "user-2")
    .executeTakeFirstOrThrow();
  session = await db.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.tracked_user_id, bob.id);
  assert.equal((await ingestRowCounts(db)).trackedUsers, 2);
  const relinked = t.logs.filter((l) => l.tag === "ingest:tracked_user:linked");
  assert.equal(relinked.length, linkedBefore + 1);
  assert.equal(relinked.at(-1)?.props.previousTrackedUserId, ada.id);
});

Deno.test("ingest: every service:* custom event becomes a marker with kind = suffix and data = payload", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  const events = [
    ...recordedEvents(3, T0),
    customEvent("service:url", { url: "https://shop.test/cart", pathname: "/cart" }, T0 + 3_500),
    customEvent("service:identity", { userId: "u-9", traits: { plan: "pro" } }, T0 + 4_000),
    customEvent("service:checkout", { step: 2 }, T0 + 4_500),
    customEvent("app:other", { ignored: true }, T0 + 5_000),
    customEvent("service:", { ignored: true }, T0 + 5_500),
  ];
  await postIngest(t.app, { sessionId, events, metadata: METADATA }, { key: t.key });
  const markers = await t.db.kysely.selectFrom("markers").select(["ts", "kind", "data"])
    .orderBy("ts").execute();
  assert.deepEqual(markers, [
    { ts: T0, kind: "url", data: { url: METADATA.url, pathname: "/products/42" } },
    { ts: T0 + 3_500, kind: "url", data: { url: "https://shop.test/cart", pathname: "/cart" } },
    { ts: T0 + 4_000, kind: "identity", data: { userId: "u-9", traits: { plan: "pro" } } },
    { ts: T0 + 4_500, kind: "checkout", data: { step: 2 } },
  ]);
});

Deno.test("ingest: a later batch without metadata adds its service:* markers, and no url marker", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  await postIngest(t.app, { sessionId, events: recordedEvents(2, T0), metadata: METADATA }, {
    key: t.key,
  });
  // later batches take the statement's lean shapes: markers only, then nothing but the batch
  await postIngest(t.app, {
    sessionId,
    events: [customEvent("service:checkout", { step: 3 }, T0 + 9_000)],
  }, { key: t.key });
  await postIngest(t.app, { sessionId, events: recordedEvents(2, T0 + 10_000) }, { key: t.key });
  const markers = await t.db.kysely.selectFrom("markers").select(["ts", "kind", "data"])
    .orderBy("ts").execute();
  assert.deepEqual(markers, [
    { ts: T0, kind: "url", data: { url: METADATA.url, pathname: "/products/42" } },
    { ts: T0 + 9_000, kind: "checkout", data: { step: 3 } },
  ]);
  const session = await t.db.kysely.selectFrom("sessions").select(["event_count"])
    .executeTakeFirstOrThrow();
  assert.equal(session.event_count, 5);
});

Deno.test("ingest: one batch row per request holds the events as received, gzipped", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  const events = recordedEvents(4, T0).map((e, i) => ({
    ...e,
    sliceIndex: i % 2,
    rrwebExtra: { nested: ["kept", i] },
  }));
  const sliceMarkers = [{
    index: 1,
    reason: "navigation",
    startedAt: T0 + 2_000,
    url: "https://shop.test/b",
    pathname: "/b",
  }];
  await postIngest(t.app, { sessionId, events, metadata: METADATA, sliceMarkers }, {
    key: t.key,
    gzip: true,
  });
  await postIngest(t.app, { sessionId, events: recordedEvents(2, T0 + 10_000) }, { key: t.key });

  const batches = await t.db.kysely.selectFrom("event_batches").selectAll().orderBy("id").execute();
  assert.equal(batches.length, 2);
  assert.equal(batches[0].project_id, t.project.id);
  assert.equal(batches[0].session_external_id, sessionId);
  assert.equal(batches[0].first_ts, T0);
  assert.equal(batches[0].last_ts, T0 + 3_000);
  assert.equal(batches[0].event_count, 4);
  assert.deepEqual(await gunzipJson(batches[0].data!), events);
  assert.deepEqual(batches[0].slice_markers, sliceMarkers);
  assert.deepEqual(await gunzipJson(batches[1].data!), recordedEvents(2, T0 + 10_000));
});

Deno.test("ingest: an identical retried batch is acknowledged and stored only once", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  const first = {
    sessionId,
    events: recordedEvents(5, T0),
    metadata: METADATA,
  };
  const second = {
    sessionId,
    events: [
      ...recordedEvents(3, T0 + 10_000),
      customEvent("service:url", { url: "u", pathname: "/p" }, T0 + 13_000),
    ],
  };
  for (const body of [first, second, second, first]) {
    assert.equal((await postIngest(t.app, body, { key: t.key })).status, 204);
  }
  // Retries racing each other are stored once too.
  await Promise.all([1, 2, 3].map(() => postIngest(t.app, second, { key: t.key })));

  const counts = await ingestRowCounts(t.db.kysely);
  assert.deepEqual(counts, { sessions: 1, eventBatches: 2, markers: 2, trackedUsers: 0 });
  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.event_count, 9);
  const duplicates = t.logs.filter((l) => l.tag === "ingest:batch:received" && l.props.duplicate);
  assert.equal(duplicates.length, 5);
});

Deno.test("ingest: a batch without events opens a session without storing a batch", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  const res = await postIngest(t.app, { sessionId, events: [], metadata: METADATA }, {
    key: t.key,
  });
  assert.equal(res.status, 204);
  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.ended_at, null);
  assert.equal(session.event_count, 0);
  assert.equal(session.duration, 0);
  const counts = await ingestRowCounts(t.db.kysely);
  assert.deepEqual(counts, { sessions: 1, eventBatches: 0, markers: 1, trackedUsers: 0 });
});

Deno.test("ingest: gzip and plain bodies are both accepted, with or without an identity encoding", async () => {
  await using t = await setup();
  for (
    const options of [{ gzip: true }, { gzip: false }, {
      headers: { "Content-Encoding": "identity" },
    }]
  ) {
    const body = {
      sessionId: crypto.randomUUID(),
      events: recordedEvents(3, T0),
      metadata: METADATA,
    };
    const res = await postIngest(t.app, body, { key: t.key, ...options });
    assert.equal(res.status, 204);
  }
  assert.equal((await ingestRowCounts(t.db.kysely)).sessions, 3);
});

Deno.test("ingest: lastUsedAt is set on the project after a successful batch", async () => {
  await using t = await setup();
  assert.equal(t.project.last_used_at, null);
  await postIngest(t.app, { sessionId: crypto.randomUUID(), events: recordedEvents(1, T0) }, {
    key: t.key,
  });
  await t.deps.lastUsed.settle();
  const project = await t.db.kysely.selectFrom("projects").selectAll().executeTakeFirstOrThrow();
  assert.ok(project.last_used_at instanceof Date);
  assert.ok(Math.abs(project.last_used_at.getTime() - Date.now()) < 60_000);
});

Deno.test("ingest: OPTIONS preflight allows any origin, the key header and gzip", async () => {
  await using t = await setup();
  const res = await t.app.request("/api/ingest", {
    method: "OPTIONS",
    headers: {
      Origin: "https://customer.test",
      "Access-Control-Request-Method": "POST",
      "Access-Control-Request-Headers": "content-type, content-encoding, x-service-public-key",
    },
  });
  assert.equal(res.status, 204);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.match(res.headers.get("access-control-allow-methods") ?? "", /POST/);
  const allowed = (res.headers.get("access-control-allow-headers") ?? "").toLowerCase();
  for (const header of ["content-type", "content-encoding", "x-service-public-key"]) {
    assert.ok(allowed.includes(header), header);
  }
});

Deno.test("ingest: metadata arriving after an anonymous first batch fills the session and adds the url marker once", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  await postIngest(t.app, { sessionId, events: recordedEvents(2, T0 + 5_000) }, { key: t.key });
  let session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.url, null);
  assert.equal((await ingestRowCounts(t.db.kysely)).markers, 0);

  await postIngest(t.app, { sessionId, events: recordedEvents(2, T0), metadata: METADATA }, {
    key: t.key,
  });
  await postIngest(
    t.app,
    { sessionId, events: recordedEvents(1, T0 + 9_000), metadata: METADATA },
    {
      key: t.key,
    },
  );

  session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.url, METADATA.url);
  assert.equal(session.screen_width, METADATA.screenWidth);
  const markers = await t.db.kysely.selectFrom("markers").select(["ts", "kind", "data"]).execute();
  assert.deepEqual(markers, [
    { ts: T0, kind: "url", data: { url: METADATA.url, pathname: "/products/42" } },
  ]);
});

Deno.test("ingest: identified and anonymous batches racing on one session never deadlock", async () => {
  await using t = await setup();
  const sessionId = crypto.randomUUID();
  const identity = { ...METADATA, userIdentity: { userId: "racer", traits: {} } };
  await postIngest(t.app, { sessionId, events: recordedEvents(2, T0), metadata: identity }, {
    key: t.key,
  });
  const responses = await Promise.all(Array.from({ length: 30 }, (_, i) =>
    postIngest(t.app, {
      sessionId,
      events: recordedEvents(2, T0 + (i + 1) * 10_000),
      ...(i % 2 ? { metadata: identity } : {}),
    }, { key: t.key })));
  assert.deepEqual(responses.map((r) => r.status), Array(30).fill(204));
  const session = await t.db.kysely.selectFrom("sessions").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.event_count, 62);
  const user = await t.db.kysely.selectFrom("tracked_users").selectAll().executeTakeFirstOrThrow();
  assert.equal(session.tracked_user_id, user.id);
});
