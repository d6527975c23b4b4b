// The list page's heartbeat, GET /api/tracked-users/heartbeat?ids=…: the status of each asked user
// of the active organization in one answer, other organizations' users left out, bad ids 400.
import assert from "node:assert/strict";
import { trackedUsersHeartbeat } from "@/core/tracked_users/detail.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { DAY, MINUTE, seedTrackedUser, viewerOf } from "@/tests/helpers/tracked_users_factories.ts";

Deno.test("heartbeat: many users at once; online within 120000 ms; other organizations left out", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const elsewhere = await insertProject(t.db.kysely);
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: project.organization_id });
  const T = Date.now();
  const online = await seedTrackedUser(t.db.kysely, project, {
    sessions: [{ start: T - 2 * MINUTE, durationMs: MINUTE }],
  });
  const idle = await seedTrackedUser(t.db.kysely, project, {
    sessions: [{ start: T - DAY, durationMs: MINUTE }],
  });
  const never = await seedTrackedUser(t.db.kysely, project);
  const foreign = await seedTrackedUser(t.db.kysely, elsewhere, {
    sessions: [{ start: T - 2 * MINUTE, durationMs: MINUTE }],
  });

  const ids = [online.user.id, idle.user.id, never.user.id, foreign.user.id, online.user.id];
  const res = await call(t.app, "GET", `/api/tracked-users/heartbeat?ids=${ids.join(",")}`, {
    cookie: viewer.cookie,
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  const body = await res.json() as { data: { id: string; online: boolean }[] };
  const byId = new Map(body.data.map((s) => [s.id, s]));
  assert.equal(body.data.length, 3, "one entry per user of the organization");
  assert.deepEqual(byId.get(online.user.id), {
    id: online.user.id,
    online: true,
    lastEventAt: new Date(T - MINUTE).toISOString(),
  });
  assert.equal(byId.get(idle.user.id)?.online, false);
  assert.deepEqual(byId.get(never.user.id), {
    id: never.user.id,
    online: false,
    lastEventAt: null,
  });
  assert.equal(byId.has(foreign.user.id), false);

  // The same 120000 ms threshold as the single-user heartbeat, inclusive.
  const at = async (ms: number) =>
    (await trackedUsersHeartbeat(
      t.deps,
      viewerOf(project.organization_id),
      [online.user.id],
      new Date(T - MINUTE + ms),
    )).data[0].online;
  assert.equal(await at(120_000), true);
  assert.equal(await at(120_001), false);
});

Deno.test("heartbeat: no ids, more than 100, or signed out is refused", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: project.organization_id });
  const tooMany = Array.from({ length: 101 }, (_, i) => `u${i}`).join(",");
  for (const query of ["", "?ids=", `?ids=${tooMany}`]) {
    const res = await call(t.app, "GET", `/api/tracked-users/heartbeat${query}`, {
      cookie: viewer.cookie,
    });
    assert.equal(res.status, 400, query);
    assert.equal((await res.json()).kind, "validation");
  }
  const signedOut = await call(t.app, "GET", "/api/tracked-users/heartbeat?ids=a");
  assert.equal(signedOut.status, 401);
});
