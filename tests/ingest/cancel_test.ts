// POST /api/sessions/cancel: the SDK asks the service to forget the session it recorded.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject, randomKey } from "@/tests/helpers/factories.ts";
import {
  customEvent,
  ingestRowCounts,
  METADATA,
  postIngest,
  recordedEvents,
} from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

Deno.test("cancel: deletes the session with its batches and markers, and logs session:cancel:ok", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const kept = crypto.randomUUID();
  const cancelled = crypto.randomUUID();
  for (const sessionId of [kept, cancelled]) {
    const events = [
      ...recordedEvents(4, T0),
      customEvent("service:url", { url: "u", pathname: "/" }, T0 + 5),
    ];
    await postIngest(t.app, { sessionId, events, metadata: METADATA }, { key: project.key });
  }

  const res = await postIngest(
    t.app,
    { sessionId: cancelled },
    { key: project.key },
    "/api/sessions/cancel",
  );

  assert.equal(res.status, 204);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  const sessions = await t.db.kysely.selectFrom("sessions").select("external_id").execute();
  assert.deepEqual(sessions, [{ external_id: kept }]);
  assert.deepEqual(await ingestRowCounts(t.db.kysely), {
    sessions: 1,
    eventBatches: 1,
    markers: 2,
    trackedUsers: 0,
  });
  assert.ok(t.logs.some((l) => l.tag === "session:cancel:ok" && l.level === "info"));
});

Deno.test("cancel: before any batch arrived it answers 204 and logs session:cancel:noop_race", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const res = await postIngest(
    t.app,
    { sessionId: crypto.randomUUID() },
    { key: project.key },
    "/api/sessions/cancel",
  );
  assert.equal(res.status, 204);
  assert.ok(t.logs.some((l) => l.tag === "session:cancel:noop_race" && l.level === "debug"));
});

Deno.test("cancel: another project's key cannot delete the session", async () => {
  await using t = await createTestApp();
  const owner = await insertProject(t.db.kysely);
  const stranger = await insertProject(t.db.kysely);
  const sessionId = crypto.randomUUID();
  await postIngest(t.app, { sessionId, events: recordedEvents(2, T0) }, { key: owner.key });
  const res = await postIngest(t.app, { sessionId }, { key: stranger.key }, "/api/sessions/cancel");
  assert.equal(res.status, 204);
  assert.equal((await ingestRowCounts(t.db.kysely)).sessions, 1);
});

Deno.test("cancel: missing, malformed and unknown keys are 401; a bad body is 400", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const sessionId = crypto.randomUUID();
  await postIngest(t.app, { sessionId, events: recordedEvents(2, T0) }, { key: project.key });
  for (const key of [null, "sp_nope", randomKey()]) {
    const res = await postIngest(t.app, { sessionId }, { key }, "/api/sessions/cancel");
    assert.equal(res.status, 401);
    assert.equal((await res.json()).kind, "auth");
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
  }
  const bad = await postIngest(
    t.app,
    { sessionId: "x" },
    { key: project.key },
    "/api/sessions/cancel",
  );
  assert.equal(bad.status, 400);
  assert.equal((await bad.json()).kind, "validation");
  assert.equal((await ingestRowCounts(t.db.kysely)).sessions, 1);
});
