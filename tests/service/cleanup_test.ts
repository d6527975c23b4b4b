// The daily cleanup: the four ordered sweeps on a prepared database, chunking, the cron secret and
// the advisory lock (docs/decisions.md "Cleanup"; another instance's lock: cleanup_lock_postgres_test.ts).
import assert from "node:assert/strict";
import { runCleanup } from "@/core/service/cleanup.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { insertSessions } from "@/tests/helpers/sessions_factories.ts";
import { ids, prepare } from "@/tests/helpers/cleanup_world.ts";

const DAY = 86_400_000;

Deno.test("cleanup: four ordered sweeps with their counts on a prepared database", async () => {
  await using t = await createTestApp();
  const now = Date.now();
  const p = await prepare(t, now);
  const result = await runCleanup(t.deps, new Date(now));
  assert.deepEqual(result, {
    invites: 5,
    sessions: 1,
    trackedUsers: 2,
    organizations: 1,
    skipped: false,
  });

  const invites = await ids(t, "invites");
  assert.ok(p.goneInvites.every((i) => !invites.has(i.id)));
  assert.ok(p.keptInvites.every((i) => invites.has(i.id)));
  const sessions = await ids(t, "sessions");
  assert.ok(!sessions.has(p.old.id) && sessions.has(p.young.id));
  assert.equal(sessions.size, 1); // the empty organization's session went with it
  const batches = await t.db.kysely.selectFrom("event_batches").select("id").execute();
  const markers = await t.db.kysely.selectFrom("markers").select("id").execute();
  assert.equal(batches.length + markers.length, 0);
  const tracked = await ids(t, "tracked_users");
  assert.deepEqual(tracked, new Set([p.active.id, p.fresh.id]));
  const orgs = await ids(t, "organizations");
  assert.deepEqual(orgs, new Set([p.org.id, p.newborn.id]));
  const pointing = await t.db.kysely.selectFrom("users").select("active_organization_id")
    .where("id", "=", p.pointing.id).executeTakeFirstOrThrow();
  assert.equal(pointing.active_organization_id, null);

  const start = t.logs.find((l) => l.tag === "cron:cleanup:start");
  const summary = t.logs.find((l) => l.tag === "cron:cleanup:summary");
  assert.equal(start?.level, "info");
  assert.equal(summary?.level, "info");
  assert.equal(summary?.props.sessions, 1);
  assert.equal(summary?.props.trackedUsers, 2);

  // A second run finds nothing left to do.
  const again = await runCleanup(t.deps, new Date(now));
  assert.deepEqual(again, {
    invites: 0,
    sessions: 0,
    trackedUsers: 0,
    organizations: 0,
    skipped: false,
  });
});

Deno.test("cleanup: deletes in bounded chunks until none are left", async () => {
  await using t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const old = new Date(Date.now() - 8 * DAY);
  await insertSessions(
    t.db.kysely,
    project,
    Array.from({ length: 25 }, () => ({ createdAt: old })),
  );
  await insertSessions(t.db.kysely, project, Array.from({ length: 3 }, () => ({})));
  const result = await runCleanup(t.deps, new Date(), { chunkRows: 10 });
  assert.equal(result.sessions, 25);
  assert.equal((await ids(t, "sessions")).size, 3);
});

Deno.test("cron endpoint: a wrong or missing bearer is 401, logged, and deletes nothing", async () => {
  await using t = await createTestApp({ CRON_SECRET: "s3cret-cron" });
  const now = Date.now();
  await prepare(t, now);
  const before = await ids(t, "sessions");
  for (const authorization of ["", "Bearer wrong", "s3cret-cron", "Bearer s3cret-cron2"]) {
    const res = await call(t.app, "GET", "/api/cron/daily-cleanup", {
      headers: { Authorization: authorization },
    });
    assert.equal(res.status, 401, authorization);
    assert.equal((await res.json()).kind, "auth");
  }
  assert.deepEqual(await ids(t, "sessions"), before);
  const warned = t.logs.filter((l) => l.tag === "cron:cleanup:unauthorized");
  assert.equal(warned.length, 4);
  assert.ok(warned.every((l) => l.level === "warning"));
  assert.ok(!t.logs.some((l) => l.tag === "cron:cleanup:start"));

  const res = await call(t.app, "GET", "/api/cron/daily-cleanup", {
    headers: { Authorization: "Bearer s3cret-cron" },
  });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type")!, /application\/json/);
  assert.deepEqual(await res.json(), {
    invites: 5,
    sessions: 1,
    trackedUsers: 2,
    organizations: 1,
    skipped: false,
  });
});

Deno.test("cron endpoint: without CRON_SECRET the check is skipped", async () => {
  await using t = await createTestApp();
  const res = await call(t.app, "GET", "/api/cron/daily-cleanup");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), {
    invites: 0,
    sessions: 0,
    trackedUsers: 0,
    organizations: 0,
    skipped: false,
  });
});

Deno.test("cleanup: a second concurrent run returns without deleting and says so", async () => {
  await using t = await createTestApp();
  const now = Date.now();
  await prepare(t, now);
  const [a, b] = await Promise.all([
    runCleanup(t.deps, new Date(now)),
    runCleanup(t.deps, new Date(now)),
  ]);
  const [ran, skipped] = a.skipped ? [b, a] : [a, b];
  assert.equal(ran.sessions, 1);
  assert.deepEqual(skipped, {
    invites: 0,
    sessions: 0,
    trackedUsers: 0,
    organizations: 0,
    skipped: true,
  });
  assert.ok(t.logs.some((l) => l.tag === "cron:cleanup:skipped"));
});
