// One tracked user: detail, heartbeat (online at exactly 120000 ms, not at 120001), display-name
// overrides, deletion keeping sessions, roles, and 404 for another organization on every endpoint.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { trackedUserStatus } from "@/core/tracked_users/detail.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { DAY, MINUTE, seedTrackedUser, viewerOf } from "@/tests/helpers/tracked_users_factories.ts";

async function setup() {
  const t = await createTestApp();
  const project = await insertProject(t.db.kysely);
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: project.organization_id });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: project.organization_id });
  return Object.assign(t, { project, admin, viewer });
}

Deno.test("tracked user: detail and heartbeat; online exactly at 120000 ms, not at 120001", async () => {
  await using t = await setup();
  const T = Date.now();
  const { user } = await seedTrackedUser(t.db.kysely, t.project, {
    externalId: "ext-1",
    traits: { email: "ada@example.test" },
    sessions: [{ start: T - DAY, durationMs: MINUTE }, {
      start: T - 3 * MINUTE,
      durationMs: MINUTE,
    }],
  });
  const res = await call(t.app, "GET", `/api/tracked-users/${user.id}`, {
    cookie: t.viewer.cookie,
  });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const body = await res.json();
  assert.equal(body.id, user.id);
  assert.equal(body.externalId, "ext-1");
  assert.equal(body.displayName, "ada@example.test", "no name set anywhere: the email trait");
  assert.equal(body.sessionCount, 2);
  assert.equal(body.activeTime7d, 2 * MINUTE);
  assert.equal(body.lastEventAt, new Date(T - 2 * MINUTE).toISOString());
  assert.equal(body.customName, null);
  assert.equal(body.displayNameTraitKey, null);
  assert.deepEqual(body.traits, { email: "ada@example.test" });

  const heartbeat = await call(t.app, "GET", `/api/tracked-users/${user.id}/status`, {
    cookie: t.viewer.cookie,
  });
  assert.equal(heartbeat.status, 200);
  assert.equal(heartbeat.headers.get("cache-control"), "no-store");
  const lastEventAt = new Date(T - 2 * MINUTE).toISOString();
  assert.deepEqual(await heartbeat.json(), { online: body.status === "ONLINE", lastEventAt });

  const viewer = viewerOf(t.project.organization_id);
  const at = (ms: number) =>
    trackedUserStatus(t.deps, viewer, user.id, new Date(T - 2 * MINUTE + ms));
  assert.deepEqual(await at(120_000), { online: true, lastEventAt });
  assert.deepEqual(await at(120_001), { online: false, lastEventAt });
  assert.deepEqual(await at(0), { online: true, lastEventAt });
});

Deno.test("tracked user: display-name overrides walk the chain; ADMIN sets them, VIEWER cannot", async () => {
  await using t = await setup();
  const db = t.db.kysely;
  await db.updateTable("projects").set({ display_name_trait_key: "email" })
    .where("id", "=", t.project.id).execute();
  const { user } = await seedTrackedUser(db, t.project, {
    externalId: "ext-7",
    traits: { email: " ada@example.test ", seat: 42, blank: "  " },
  });
  const patch = (body: unknown, cookie = t.admin.cookie) =>
    call(t.app, "PATCH", `/api/tracked-users/${user.id}/display-name`, { cookie, body });
  const nameAfter = async (body: unknown) => {
    const res = await patch(body);
    assert.equal(res.status, 200, JSON.stringify(body));
    return (await res.json()).displayName;
  };

  const detail = await call(t.app, "GET", `/api/tracked-users/${user.id}`, {
    cookie: t.admin.cookie,
  });
  assert.equal((await detail.json()).displayName, "ada@example.test", "the project's trait key");
  assert.equal(await nameAfter({ traitKey: "seat" }), "42", "the user's own key; numbers as text");
  assert.equal(await nameAfter({ customName: "  Countess  " }), "Countess", "custom name first");
  const both = await patch({ customName: null, traitKey: "blank" });
  const cleared = await both.json();
  assert.equal(cleared.customName, null);
  assert.equal(cleared.displayNameTraitKey, "blank");
  assert.equal(cleared.displayName, "ada@example.test", "a blank trait falls through");
  assert.equal(await nameAfter({ traitKey: null }), "ada@example.test");
  await db.updateTable("projects").set({ display_name_trait_key: null }).execute();
  assert.equal(await nameAfter({ customName: null }), "ada@example.test", "then the email trait");
  await db.updateTable("tracked_users").set({ traits: sql`'{"seat": 42}'::jsonb` })
    .where("id", "=", user.id).execute();
  assert.equal(await nameAfter({ customName: null }), "ext-7", "externalId last");

  for (
    const body of [
      {},
      { customName: "" },
      { customName: "   " },
      { customName: "x".repeat(121) },
      { traitKey: "k".repeat(61) },
      { traitKey: 5 },
      { nickname: "x" },
      null,
    ]
  ) {
    const res = await patch(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal((await res.json()).kind, "validation");
  }
  assert.equal(
    (await patch({ customName: "x".repeat(120), traitKey: "k".repeat(60) })).status,
    200,
  );

  const refused = await patch({ customName: "Viewer's pick" }, t.viewer.cookie);
  assert.equal(refused.status, 403);
  assert.equal((await refused.json()).kind, "forbidden");
  const row = await db.selectFrom("tracked_users").select("custom_name").executeTakeFirstOrThrow();
  assert.equal(row.custom_name, "x".repeat(120));
});

Deno.test("tracked user: DELETE keeps the sessions, unlinked; VIEWER cannot delete", async () => {
  await using t = await setup();
  const db = t.db.kysely;
  const { user, sessions } = await seedTrackedUser(db, t.project, {
    sessions: [{ start: Date.now() - DAY }, { start: Date.now() - MINUTE }],
  });
  const path = `/api/tracked-users/${user.id}`;
  const refused = await call(t.app, "DELETE", path, { cookie: t.viewer.cookie });
  assert.equal(refused.status, 403);

  const res = await call(t.app, "DELETE", path, { cookie: t.admin.cookie });
  assert.equal(res.status, 204);
  assert.equal(await res.text(), "");
  const left = await db.selectFrom("sessions").select(["id", "tracked_user_id"]).orderBy("id")
    .execute();
  assert.deepEqual(
    left,
    sessions.map((s) => ({ id: s.id, tracked_user_id: null })).toSorted((a, b) =>
      a.id < b.id ? -1 : 1
    ),
  );
  assert.equal((await call(t.app, "GET", path, { cookie: t.admin.cookie })).status, 404);
  assert.equal((await call(t.app, "DELETE", path, { cookie: t.admin.cookie })).status, 404);
});

Deno.test("tracked user: another organization's user is 404 on every endpoint, as is an unknown id", async () => {
  await using t = await setup();
  const foreign = await insertProject(t.db.kysely);
  const { user } = await seedTrackedUser(t.db.kysely, foreign, {
    sessions: [{ start: Date.now() }],
  });
  const owner = await signedInUser(t, { role: "OWNER", organizationId: t.project.organization_id });
  for (const id of [user.id, "missing"]) {
    for (
      const [method, path, body] of [
        ["GET", ""],
        ["GET", "/status"],
        ["GET", "/timeline"],
        ["GET", "/sessions"],
        ["GET", "/activity"],
        ["PATCH", "/display-name", { customName: "x" }],
        ["DELETE", ""],
      ] as const
    ) {
      const res = await call(t.app, method, `/api/tracked-users/${id}${path}`, {
        cookie: owner.cookie,
        body,
      });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal((await res.json()).kind, "not_found");
    }
  }
  const kept = await t.db.kysely.selectFrom("tracked_users").select("custom_name")
    .where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.equal(kept.custom_name, null);
  // Signed out is 401 on the same paths.
  const signedOut = await call(t.app, "GET", `/api/tracked-users/${user.id}/activity`);
  assert.equal(signedOut.status, 401);
});
