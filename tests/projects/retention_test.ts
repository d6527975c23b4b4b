// Retention per project and pins: `retentionDays` 1–365 by ADMIN+ (400
// naming it otherwise, VIEWER 403, nothing changed), its answer counts what the next cleanup
// deletes; the cleanup deletes each project's sessions past its own retention, a pinned session
// outlives it and `pinned=true` lists it; unpinned, the next cleanup takes it.
import assert from "node:assert/strict";
import { runCleanup } from "@/core/service/cleanup.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertBatch, insertSession } from "@/tests/helpers/sessions_factories.ts";
import { addDayPartitions } from "@/db/queries/service/partitions.ts";

const DAY = 86_400_000;

Deno.test('retention: 1 and 365 days are accepted, 0, 366, 1.5 and "7" are 400 naming retentionDays, a VIEWER 403; the answer counts what the next cleanup deletes', async () => {
  await using t = await createTestApp();
  const admin = await signedInUser(t, { role: "ADMIN" });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: admin.organizationId });
  const project = await insertProject(t.db.kysely, { organizationId: admin.organizationId });
  const path = `/api/projects/${project.id}`;
  const patch = (body: unknown, cookie = admin.cookie) =>
    call(t.app, "PATCH", path, { cookie, body });
  const read = async () =>
    (await (await call(t.app, "GET", path, { cookie: viewer.cookie })).json()).retentionDays;
  assert.equal(await read(), 7);

  const now = Date.now();
  for (const age of [1.5, 2.5, 4.5]) {
    await insertSession(t.db.kysely, project, { createdAt: new Date(now - age * DAY) });
  }
  const pinned = await insertSession(t.db.kysely, project, {
    createdAt: new Date(now - 5 * DAY),
  });
  await t.db.kysely.updateTable("sessions").set({ pinned_at: new Date() })
    .where("id", "=", pinned.id).execute();

  for (const [days, toDelete] of [[1, 3], [365, 0], [2, 2], [4, 1]] as const) {
    const res = await patch({ retentionDays: days });
    assert.equal(res.status, 200, String(days));
    const body = await res.json();
    assert.equal(body.retentionDays, days);
    assert.equal(body.sessionsToDelete, toDelete, `at ${days} days`); // never the pinned one
    assert.equal(await read(), days);
  }
  for (const bad of [0, 366, 1.5, "7", null]) {
    const res = await patch({ retentionDays: bad });
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.match(await res.text(), /retentionDays/);
  }
  assert.equal((await patch({ retentionDays: 30 }, viewer.cookie)).status, 403);
  assert.equal(await read(), 4);
  // Other settings alone leave it, and say nothing of deletions.
  const renamed = await (await patch({ name: "Shop" })).json();
  assert.equal(renamed.retentionDays, 4);
  assert.equal("sessionsToDelete" in renamed, false);
});

Deno.test("retention: projects keeping 3 and 30 days lose and keep a 4-day-old session; a pinned one outlives 3 days, is listed by pinned=true, and goes once unpinned", async () => {
  await using t = await createTestApp();
  const admin = await signedInUser(t, { role: "ADMIN" });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: admin.organizationId });
  const db = t.db.kysely;
  const short = await insertProject(db, { organizationId: admin.organizationId, name: "Short" });
  const long = await insertProject(db, { organizationId: admin.organizationId, name: "Long" });
  for (const [p, days] of [[short, 3], [long, 30]] as const) {
    const res = await call(t.app, "PATCH", `/api/projects/${p.id}`, {
      cookie: admin.cookie,
      body: { retentionDays: days },
    });
    assert.equal(res.status, 200);
  }
  // The cleanup runs on a controlled clock: "now" is ten days on, the sessions made to suit it.
  const now = Date.now() + 10 * DAY;
  const aged = (days: number) => new Date(now - days * DAY);
  const lost = await insertSession(db, short, { createdAt: aged(4) });
  const young = await insertSession(db, short, { createdAt: aged(2.9) });
  const kept = await insertSession(db, long, { createdAt: aged(4) });
  const longOld = await insertSession(db, long, { createdAt: aged(30.1) });
  const pinned = await insertSession(db, short, { createdAt: aged(4) });
  // Pinned 40 days ago, past the longest retention: its day's partition is not dropped.
  await addDayPartitions(db, aged(40), aged(40));
  const ancient = await insertSession(db, short, { createdAt: aged(40) });
  await insertBatch(db, ancient, [{ timestamp: 1 }]);
  await db.updateTable("sessions").set({ pinned_at: new Date() }).where("id", "=", ancient.id)
    .execute();

  const pin = (method: string, cookie = admin.cookie) =>
    call(t.app, method, `/api/sessions/${pinned.id}/pin`, { cookie });
  assert.equal((await pin("POST", viewer.cookie)).status, 403);
  const res = await pin("POST");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.equal(body.pinned, true);
  assert.equal((await pin("POST")).status, 200); // again: still pinned, the same moment
  assert.equal((await (await pin("POST")).json()).pinnedAt, body.pinnedAt);
  assert.equal(
    (await call(t.app, "POST", `/api/sessions/nope/pin`, { cookie: admin.cookie }))
      .status,
    404,
  );
  const audit = await db.selectFrom("audit_log").select(["action", "target_id"])
    .where("action", "in", ["session.pin", "session.unpin", "project.update"]).execute();
  assert.equal(audit.filter((a) => a.action === "session.pin").length, 3);
  assert.equal(audit.filter((a) => a.action === "project.update").length, 2);

  const result = await runCleanup(t.deps, new Date(now));
  assert.equal(result.sessions, 2);
  const left = new Set((await db.selectFrom("sessions").select("id").execute()).map((s) => s.id));
  assert.deepEqual(left, new Set([young.id, kept.id, pinned.id, ancient.id]));
  assert.ok(!left.has(lost.id) && !left.has(longOld.id));
  const batches = await db.selectFrom("event_batches").select("session_external_id").execute();
  assert.deepEqual(batches.map((b) => b.session_external_id), [ancient.external_id]);

  const list = async (query: string) => {
    const res = await call(t.app, "GET", `/api/sessions?${query}`, { cookie: viewer.cookie });
    assert.equal(res.status, 200);
    return (await res.json()).data.map((s: { id: string; pinned: boolean }) => [s.id, s.pinned]);
  };
  assert.deepEqual(await list("pinned=true"), [[pinned.id, true], [ancient.id, true]]);
  assert.equal((await list("pinned=false")).length, 2);
  assert.equal((await list("")).length, 4);
  assert.equal(
    (await call(t.app, "GET", `/api/sessions?pinned=yes`, { cookie: viewer.cookie }))
      .status,
    400,
  );

  assert.equal((await pin("DELETE", viewer.cookie)).status, 403);
  const unpinned = await pin("DELETE");
  assert.deepEqual(await unpinned.json(), { id: pinned.id, pinned: false, pinnedAt: null });
  assert.equal((await runCleanup(t.deps, new Date(now))).sessions, 1);
  assert.deepEqual(await list("pinned=true"), [[ancient.id, true]]);
  const after = await db.selectFrom("sessions").select("id").execute();
  assert.deepEqual(new Set(after.map((s) => s.id)), new Set([young.id, kept.id, ancient.id]));
});
