// Why a session was recorded (docs/decisions.md "Capture control"): the first batch's metadata
// names it (`sampled` when it does not), a triggered one with its trigger's time; it is set once,
// answered by GET /api/sessions and the detail, and filtered by `reason=`.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { METADATA, postIngest, recordedEvents } from "@/tests/helpers/ingest.ts";
import { recent } from "@/tests/helpers/times.ts";

const T0 = recent(1_760_000_000_000);

Deno.test("recording reason: stored from the metadata, answered by the list and the detail, filtered by reason=", async () => {
  await using t = await createTestApp();
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const send = (sessionId: string, metadata: Record<string, unknown> | undefined, start = T0) =>
    postIngest(t.app, { sessionId, events: recordedEvents(3, start), metadata }, {
      key: project.key,
    });
  const sampled = crypto.randomUUID();
  const errored = crypto.randomUUID();
  const raged = crypto.randomUUID();
  assert.equal((await send(sampled, METADATA)).status, 204);
  const errorMeta = { ...METADATA, recordingReason: "error", triggeredAt: T0 + 40_000 };
  assert.equal((await send(errored, errorMeta)).status, 204);
  const rageMeta = { ...METADATA, recordingReason: "rage_click", triggeredAt: T0 + 5_000 };
  assert.equal((await send(raged, rageMeta)).status, 204);
  // a later page's metadata cannot change why it was recorded
  const later = { ...METADATA, recordingReason: "manual", triggeredAt: T0 + 90_000 };
  assert.equal((await send(errored, later, T0 + 80_000)).status, 204);

  const list = async (query = "") => {
    const res = await call(t.app, "GET", `/api/sessions${query}`, { cookie: owner.cookie });
    return { res, body: await res.json() };
  };
  const { body } = await list();
  const byExternal = Object.fromEntries(
    body.data.map((s: { externalId: string }) => [s.externalId, s]),
  );
  assert.equal(byExternal[sampled].recordingReason, "sampled");
  assert.equal(byExternal[sampled].triggeredAt, null);
  assert.equal(byExternal[errored].recordingReason, "error");
  assert.equal(byExternal[errored].triggeredAt, T0 + 40_000);
  assert.equal(byExternal[raged].recordingReason, "rage_click");

  const externals = async (query: string) =>
    (await list(query)).body.data.map((s: { externalId: string }) => s.externalId).sort();
  assert.deepEqual(await externals("?reason=error"), [errored]);
  assert.deepEqual(await externals("?reason=error,rage_click"), [errored, raged].sort());
  assert.deepEqual(await externals("?reason=sampled"), [sampled]);
  assert.deepEqual(await externals("?reason=manual"), []);
  for (const bad of ["crash", "error,crash"]) {
    const { res } = await list(`?reason=${bad}`);
    assert.equal(res.status, 400, bad);
  }

  const detail = await call(t.app, "GET", `/api/sessions/${byExternal[errored].id}`, {
    cookie: owner.cookie,
  });
  const d = await detail.json();
  assert.equal(d.recordingReason, "error");
  assert.equal(d.triggeredAt, T0 + 40_000);
});

Deno.test("recording reason: a trigger without its time, or a time without a trigger, is 400 and stores nothing", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const bodies = [
    { ...METADATA, recordingReason: "error" },
    { ...METADATA, triggeredAt: T0 },
    { ...METADATA, recordingReason: "sampled", triggeredAt: T0 },
    { ...METADATA, recordingReason: "crash", triggeredAt: T0 },
  ];
  for (const metadata of bodies) {
    const res = await postIngest(t.app, {
      sessionId: crypto.randomUUID(),
      events: recordedEvents(3, T0),
      metadata,
    }, { key: project.key });
    assert.equal(res.status, 400, JSON.stringify(metadata));
  }
  const { count } = await t.db.kysely.selectFrom("sessions").select((e) =>
    e.fn.countAll().as("count")
  )
    .executeTakeFirstOrThrow();
  assert.equal(Number(count), 0);
});

Deno.test("recording reason: a session opened by a batch without metadata takes the trigger its metadata names later", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const sessionId = crypto.randomUUID();
  await postIngest(t.app, { sessionId, events: recordedEvents(3, T0 + 10_000) }, {
    key: project.key,
  });
  const metadata = { ...METADATA, recordingReason: "dead_click", triggeredAt: T0 + 35_000 };
  await postIngest(t.app, { sessionId, events: recordedEvents(3, T0), metadata }, {
    key: project.key,
  });
  const row = await t.db.kysely.selectFrom("sessions").select(["recording_reason", "triggered_at"])
    .executeTakeFirstOrThrow();
  assert.deepEqual(row, { recording_reason: "dead_click", triggered_at: T0 + 35_000 });
});
