// The audit log (docs/decisions.md "Audit log"): each audited change leaves its row with the actor,
// the target and the client's address, written in the change's own transaction (a change whose
// row cannot be written does not happen); ADMIN+ reads it in keyset pages filtered by action, a
// VIEWER gets 403; the daily cleanup keeps 400 days; replay views once per viewer, session and hour.
import assert from "node:assert/strict";
import { sql } from "kysely";
import FakeTimers from "@sinonjs/fake-timers";
import { runCleanup } from "@/core/service/cleanup.ts";
import { newRowId } from "@/core/ids.ts";
import { call } from "@/tests/helpers/auth.ts";
import { createPagesApp } from "@/tests/helpers/pages.ts";
import { sharesWorld } from "@/tests/helpers/shares_world.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";

const ADDRESS = "203.0.113.7";
const DAY_MS = 86_400_000;

async function auditWorld() {
  const smtp = await startTestSmtp();
  const t = await createPagesApp({ ...smtp.env, TRUST_PROXY: "true" });
  const w = await sharesWorld(t);
  const org = w.owner.organizationId;
  const api = (method: string, path: string, body?: unknown, cookie = w.owner.cookie) =>
    call(t.app, method, path, { cookie, body, headers: { "X-Forwarded-For": ADDRESS } });
  const rows = () =>
    w.db.selectFrom("audit_log").selectAll().where("organization_id", "=", org)
      .orderBy("created_at").orderBy("id").execute();
  const dispose = t[Symbol.asyncDispose];
  return Object.assign(w, {
    t,
    org,
    api,
    rows,
    [Symbol.asyncDispose]: async () => {
      await dispose();
      await smtp[Symbol.asyncDispose]();
    },
  });
}
type World = Awaited<ReturnType<typeof auditWorld>>;

/** Each change through the API, and the row it must leave: [action, target id]. */
async function changes(w: World): Promise<Array<[string, () => Promise<Response>, string]>> {
  const admin = await w.member("ADMIN");
  const gone = await w.member("VIEWER");
  const membership = async (userId: string) =>
    (await w.db.selectFrom("memberships").select("id").where("user_id", "=", userId)
      .executeTakeFirstOrThrow()).id;
  const projects = `/api/projects/${w.project.id}`;
  const invites = `/api/organizations/${w.org}/invites`;
  const invite = { email: "new.person@example.test", role: "VIEWER" };
  const inviteId = async () =>
    (await w.db.selectFrom("invites").select("id").executeTakeFirstOrThrow()).id;
  const person = async () =>
    (await w.db.selectFrom("tracked_users").select("id").executeTakeFirstOrThrow()).id;
  const sessions = `/api/sessions/${w.sessionId}`;
  const shareId = async () =>
    (await w.db.selectFrom("session_shares").select("id").executeTakeFirstOrThrow()).id;
  return [
    [
      "organization.update",
      () => w.api("PATCH", `/api/organizations/${w.org}`, { name: "N" }),
      w.org,
    ],
    [
      "member.role_change",
      async () =>
        w.api("PATCH", `/api/organizations/${w.org}/members/${await membership(admin.user.id)}`, {
          role: "VIEWER",
        }),
      admin.user.id,
    ],
    [
      "member.remove",
      async () =>
        w.api("DELETE", `/api/organizations/${w.org}/members/${await membership(gone.user.id)}`),
      gone.user.id,
    ],
    ["invite.create", () => w.api("POST", invites, invite), "{invite}"],
    [
      "invite.refresh",
      async () => w.api("PATCH", `${invites}/${await inviteId()}`, {}),
      "{invite}",
    ],
    ["invite.revoke", async () => w.api("DELETE", `${invites}/${await inviteId()}`), "{invite}"],
    ["project.update", () => w.api("PATCH", projects, { retentionDays: 30 }), w.project.id],
    ["project.key_reveal", () => w.api("GET", `${projects}/key`), w.project.id],
    ["project.key_rotate", () => w.api("POST", `${projects}/regenerate-key`), w.project.id],
    ["share.create", () => w.api("POST", `/api/sessions/${w.sessionId}/shares`, {}), "{share}"],
    ["share.revoke", async () => w.api("DELETE", `/api/shares/${await shareId()}`), "{share}"],
    [
      "session.export",
      () => w.api("GET", `${sessions}/export?format=json`),
      w.sessionId,
    ],
    ["session.pin", () => w.api("POST", `${sessions}/pin`), w.sessionId],
    ["session.unpin", () => w.api("DELETE", `${sessions}/pin`), w.sessionId],
    [
      "session.delete",
      () => w.api("DELETE", `/api/sessions/${w.otherSessionId}`),
      w.otherSessionId,
    ],
    [
      "tracked_user.export",
      async () => w.api("GET", `/api/tracked-users/${await person()}/export`),
      "{person}",
    ],
    [
      "tracked_user.erase",
      async () => w.api("POST", `/api/tracked-users/${await person()}/erase`),
      "{person}",
    ],
    [
      "project.delete",
      () => w.api("DELETE", projects, { confirmation: "delete project" }),
      w.project.id,
    ],
  ];
}

Deno.test("audit: each change leaves its row (actor, target, address), in the change's transaction", async () => {
  await using w = await auditWorld();
  const ids: Record<string, string> = {};
  const email = w.owner.user.email;
  for (const [action, change, target] of await changes(w)) {
    const before = (await w.rows()).length;
    const res = await change();
    await res.body?.cancel();
    assert.ok(res.status < 300, `${action}: ${res.status}`);
    const added = (await w.rows()).slice(before);
    assert.deepEqual(added.map((r) => r.action), [action], action);
    const row = added[0];
    if (target.startsWith("{")) ids[target] ??= row.target_id!;
    assert.equal(row.target_id, ids[target] ?? target, action);
    assert.equal(row.target_type, action.split(".")[0]);
    assert.equal(row.actor_id, w.owner.user.id);
    assert.equal(row.actor_email, w.owner.user.email);
    assert.equal(row.client_address, ADDRESS);
  }
  const [change] = (await w.rows()).filter((r) => r.action === "member.role_change");
  assert.deepEqual(change.details, { from: "ADMIN", to: "VIEWER" });
  // The actor's email stays as written when the account changes it later.
  await w.db.updateTable("users").set({ email: "renamed@example.test" })
    .where("id", "=", w.owner.user.id).execute();
  const page = await (await w.api("GET", `/api/organizations/${w.org}/audit`)).json();
  assert.equal(page.entries.length, 18);
  assert.ok(page.entries.every((e: { actor: { email: string } }) => e.actor.email === email));
});

Deno.test("audit: a change whose row cannot be written does not happen; a refused change writes none", async () => {
  await using w = await auditWorld();
  const all = await changes(w);
  // Refused before any change: the last OWNER demoted (409), an unknown role (400).
  const me = await w.db.selectFrom("memberships").select("id").where(
    "user_id",
    "=",
    w.owner.user.id,
  )
    .executeTakeFirstOrThrow();
  const members = `/api/organizations/${w.org}/members/${me.id}`;
  assert.equal((await w.api("PATCH", members, { role: "ADMIN" })).status, 409);
  assert.equal((await w.api("PATCH", members, { role: "BOSS" })).status, 400);
  assert.deepEqual(await w.rows(), []);
  // An invite and a link to revoke, made before every audit insert fails; each change must then
  // fail whole (the export changes nothing).
  for (const [action, change] of all.filter(([a]) => a.endsWith(".create"))) {
    assert.equal((await change()).status, 201, action);
  }
  await sql`ALTER TABLE audit_log ADD CONSTRAINT refused CHECK (false) NOT VALID`.execute(w.db);
  const state = () =>
    Promise.all([
      w.db.selectFrom("organizations").select(["name", "audit_views"]).execute(),
      w.db.selectFrom("memberships").select(["id", "role"]).orderBy("id").execute(),
      w.db.selectFrom("invites").select("id").execute(),
      w.db.selectFrom("projects").select(["id", "key"]).execute(),
      w.db.selectFrom("session_shares").selectAll().execute(),
    ]);
  try {
    const before = await state();
    for (const [action, change] of all) {
      if (action === "session.export") continue;
      const res = await change();
      await res.body?.cancel();
      assert.equal(res.status, 500, action);
    }
    assert.deepEqual(await state(), before);
  } finally {
    await sql`ALTER TABLE audit_log DROP CONSTRAINT refused`.execute(w.db);
  }
});

Deno.test("audit: ADMIN+ reads keyset pages filtered by action; a VIEWER gets 403; bad input is 400", async () => {
  await using w = await auditWorld();
  const at = Date.parse("2026-03-01T12:00:00Z");
  // 120 rows, two at each instant (the id breaks the tie), every third a share.create.
  const values = Array.from({ length: 120 }, (_, i) => ({
    id: newRowId(),
    organization_id: w.org,
    action: i % 3 ? "project.update" : "share.create",
    actor_id: w.owner.user.id,
    actor_email: w.owner.user.email,
    target_type: i % 3 ? "project" : "share",
    target_id: `t${i}`,
    details: JSON.stringify({ i }),
    client_address: ADDRESS,
    created_at: new Date(at + Math.floor(i / 2) * 1000),
  }));
  await w.db.insertInto("audit_log").values(values).execute();
  const url = `/api/organizations/${w.org}/audit`;
  const walk = async (query: string, cookie = w.owner.cookie) => {
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = "";
    for (let n = 0; cursor !== null && n < 10; n++) {
      const path = `${url}?${query}${cursor ? `&cursor=${cursor}` : ""}`;
      const res: Response = await w.api("GET", path, undefined, cookie);
      assert.equal(res.status, 200);
      const page: { entries: { targetId: string }[]; nextCursor: string | null } = await res
        .json();
      sizes.push(page.entries.length);
      seen.push(...page.entries.map((e: { targetId: string }) => e.targetId));
      cursor = page.nextCursor;
    }
    return { seen, sizes };
  };
  const newestFirst = values.toSorted((a, b) =>
    b.created_at.getTime() - a.created_at.getTime() || (a.id < b.id ? 1 : -1)
  );
  const all = await walk("");
  assert.deepEqual(all.sizes, [50, 50, 20]);
  assert.deepEqual(all.seen, newestFirst.map((v) => v.target_id));
  const admin = await w.member("ADMIN");
  const shares = await walk("action=share.create", admin.cookie);
  assert.deepEqual(shares.sizes, [40]);
  assert.deepEqual(
    shares.seen,
    newestFirst.filter((v) => v.action === "share.create").map((v) => v.target_id),
  );
  const first = (await (await w.api("GET", url)).json()).entries[0];
  assert.deepEqual(Object.keys(first).sort(), [
    "action",
    "actor",
    "clientAddress",
    "createdAt",
    "details",
    "id",
    "targetId",
    "targetType",
  ]);
  assert.deepEqual(first.actor, { id: w.owner.user.id, email: w.owner.user.email });

  const viewer = await w.member("VIEWER");
  assert.equal((await w.api("GET", url, undefined, viewer.cookie)).status, 403);
  // The Settings page: the table for an ADMIN, none of it for a VIEWER, 400 for a bad filter.
  const settings = "/settings/organization/audit";
  const html = async (cookie: string, query = "") => {
    const res = await w.t.app.request(`${settings}${query}`, { headers: { cookie } });
    return { status: res.status, text: await res.text() };
  };
  assert.match((await html(admin.cookie)).text, /data-testid="audit-table"/);
  const refused = await html(viewer.cookie);
  assert.equal(refused.status, 200);
  assert.match(refused.text, /data-testid="audit-refused"/);
  assert.doesNotMatch(refused.text, /audit-table|share\.create"/);
  assert.equal((await html(admin.cookie, "?action=share.burn")).status, 400);
  for (const [query, field] of [["action=share.burn", "action"], ["cursor=%%%", "cursor"]]) {
    const res = await w.api("GET", `${url}?${query}`);
    assert.equal(res.status, 400, query);
    const body = await res.json();
    assert.ok(body.issues.some((d: { path: string }) => d.path === field), JSON.stringify(body));
  }
});

Deno.test("audit: the daily cleanup keeps 400 days of rows and deletes older ones", async () => {
  await using w = await auditWorld();
  const now = new Date("2026-06-01T03:00:00Z");
  const ages: Record<string, number> = {
    d399: 399 * DAY_MS,
    d400: 400 * DAY_MS,
    past400: 400 * DAY_MS + 1,
    d401: 401 * DAY_MS,
  };
  await w.db.insertInto("audit_log").values(
    Object.entries(ages).map(([name, age]) => ({
      id: newRowId(),
      organization_id: w.org,
      action: "project.update",
      actor_id: w.owner.user.id,
      actor_email: w.owner.user.email,
      target_type: "project",
      target_id: name,
      details: "{}",
      client_address: null,
      created_at: new Date(now.getTime() - age),
    })),
  ).execute();
  await runCleanup(w.t.deps, now, { chunkRows: 1 });
  assert.deepEqual((await w.rows()).map((r) => r.target_id).sort(), ["d399", "d400"]);
});

Deno.test("audit: with replay views audited, opening a replay writes session.view once per viewer, session and hour", async () => {
  await using w = await auditWorld();
  const open = async (cookie: string) => {
    const res = await w.t.app.request(`/replays/${w.sessionId}`, {
      headers: { cookie, "x-forwarded-for": ADDRESS },
    });
    await res.body?.cancel();
    assert.equal(res.status, 200);
  };
  const views = async () => (await w.rows()).filter((r) => r.action === "session.view");
  const clock = FakeTimers.withGlobal(globalThis).install({
    now: Date.parse("2026-03-01T10:59:59.998Z"),
    toFake: ["Date"],
  });
  try {
    await open(w.owner.cookie);
    assert.equal((await views()).length, 0, "off by default");
    const viewer = await w.member("VIEWER");
    const patch = { auditViews: true };
    assert.equal(
      (await w.api("PATCH", `/api/organizations/${w.org}`, patch, viewer.cookie)).status,
      403,
    );
    assert.equal((await w.api("PATCH", `/api/organizations/${w.org}`, patch)).status, 200);
    const toggled = (await w.rows()).filter((r) => r.action === "organization.update");
    assert.deepEqual(toggled.map((r) => r.details), [{ auditViews: true }]);
    await open(w.owner.cookie);
    clock.tick(1); // 10:59:59.999, the same hour
    await open(w.owner.cookie);
    await open(viewer.cookie);
    assert.equal((await views()).length, 2, "one per viewer in the hour");
    clock.tick(1); // 11:00:00.000, the next hour
    await open(w.owner.cookie);
    const rows = await views();
    assert.deepEqual(rows.map((r) => [r.actor_id, new Date(r.created_at).toISOString()]), [
      [w.owner.user.id, "2026-03-01T10:59:59.998Z"],
      [viewer.user.id, "2026-03-01T10:59:59.999Z"],
      [w.owner.user.id, "2026-03-01T11:00:00.000Z"],
    ]);
    assert.ok(rows.every((r) => r.target_id === w.sessionId && r.client_address === ADDRESS));
  } finally {
    clock.uninstall();
  }
});
