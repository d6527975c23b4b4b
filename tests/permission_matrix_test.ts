// Every dashboard endpoint called by OWNER, ADMIN and VIEWER of an organization, by
// the OWNER of another organization and signed out, against the table in tests/permission_matrix.ts
// (docs/decisions.md "Roles"); refusals carry the one error body. Plus cross-organization
// isolation: organization 1's resources are 404 and absent from lists for organization 2's owner.
import assert from "node:assert/strict";
import { createTestApp } from "./helpers/app.ts";
import { call, type Requestable } from "./helpers/auth.ts";
import { CALLERS, seedWorld, type World } from "./helpers/permission_world.ts";
import { MATRIX, OUTSIDE_MATRIX, routeShape, type Row } from "./permission_matrix.ts";

const CRON_SECRET = "permission-matrix-cron-secret";
/** The world's ids that belong to organization 1 (the rest are the caller's own or new). */
const ORG_ONE_IDS = [
  "org",
  "project",
  "projectDoomed",
  "session",
  "sessionDoomed",
  "trackedUser",
  "trackedUserDoomed",
  "memberSpare",
  "memberGone",
  "memberSelf",
  "inviteRefresh",
  "inviteRevoke",
  "share",
  "comment",
  "savedSearch",
];
const KIND: Record<number, string> = { 401: "auth", 403: "forbidden", 404: "not_found" };

/** Replaces each `{token}` with the world's id for it. */
function fill(text: string, world: World): string {
  return text.replace(/\{(\w+)\}/g, (_, token: string) => {
    const id = world.ids[token];
    if (id === undefined) throw new Error(`no id for {${token}}`);
    return id;
  });
}

/** Calls the row's endpoint as the world's caller; returns what disagrees with `expected`. */
async function check(app: Requestable, row: Row, world: World, expected: number) {
  const [method, path] = row.route.split(" ");
  const res = await call(app, method, fill(path, world), {
    cookie: world.cookie,
    body: row.body === undefined ? undefined : JSON.parse(fill(JSON.stringify(row.body), world)),
    headers: row.bearer ? { Authorization: `Bearer ${CRON_SECRET}` } : {},
  });
  const text = await res.text();
  if (res.status !== expected) return `expected ${expected}, got ${res.status} ${text}`;
  if (expected < 400) return null;
  if (!/^application\/json/.test(res.headers.get("content-type") ?? "")) {
    return `error without a JSON content type: ${res.headers.get("content-type")}`;
  }
  const body = JSON.parse(text);
  if (body.kind !== KIND[expected] || typeof body.message !== "string") {
    return `error body ${text} is not { kind: "${KIND[expected]}", message }`;
  }
  return null;
}

for (const caller of CALLERS) {
  const cells = MATRIX.reduce((n, s) => n + s.rows.length, 0);
  Deno.test(`permission matrix: ${caller} gets exactly the statuses of the table (${cells} endpoints)`, async () => {
    await using t = await createTestApp({ CRON_SECRET });
    const wrong: string[] = [];
    for (const section of MATRIX) {
      const world = await seedWorld(t, caller);
      for (const row of section.rows) {
        const problem = await check(t.app, row, world, row.expect[caller]);
        if (problem) wrong.push(`${caller} ${row.route} [${section.name}]: ${problem}`);
      }
    }
    assert.deepEqual(wrong, []);
  });
}

Deno.test("permission matrix: every /api route of the dashboard has a row (or is listed outside it)", async () => {
  await using t = await createTestApp();
  const inTable = new Set(MATRIX.flatMap((s) => s.rows.map((row) => routeShape(row.route))));
  const missing = t.app.routes
    .filter((route) => route.path.startsWith("/api/") && !["ALL", "OPTIONS"].includes(route.method))
    .map((route) => routeShape(`${route.method} ${route.path}`))
    .filter((shape) => !inTable.has(shape) && !OUTSIDE_MATRIX.has(shape));
  assert.deepEqual([...new Set(missing)], []);
});

Deno.test("permission matrix: every resource id of organization 1 is in some row, and each such row expects 404 from organization 2's owner", () => {
  const naming = (row: Row, token: string) =>
    (row.route + JSON.stringify(row.body ?? "")).includes(`{${token}}`);
  const rows = MATRIX.flatMap((s) => s.rows);
  for (const token of ORG_ONE_IDS) {
    const named = rows.filter((row) => naming(row, token));
    assert.ok(named.length > 0, `no row names {${token}}`);
    for (const row of named) assert.equal(row.expect.OTHER, 404, `${row.route} ({${token}})`);
  }
});

Deno.test("permission matrix: organization 2's owner finds none of organization 1's resources in lists", async () => {
  await using t = await createTestApp();
  const world = await seedWorld(t, "OTHER");
  const { org, project, session, trackedUser } = world.ids;
  const list = async (path: string) => {
    const res = await call(t.app, "GET", path, { cookie: world.cookie });
    assert.equal(res.status, 200, path);
    return await res.json();
  };
  const ids = (items: { id: string }[]) => items.map((item) => item.id);

  const orgs = await list("/api/organizations");
  assert.equal(orgs.length, 1, "only their own organization");
  assert.ok(!ids(orgs).includes(org));
  const projects = await list("/api/projects");
  assert.equal(projects.length, 1, "only their own project");
  assert.ok(!ids(projects).includes(project));
  const sessions = (await list("/api/sessions")).data;
  assert.equal(sessions.length, 1, "only their own session");
  assert.ok(!ids(sessions).includes(session));
  const users = (await list("/api/tracked-users")).data;
  assert.equal(users.length, 1, "only their own tracked user");
  assert.ok(!ids(users).includes(trackedUser));
  assert.deepEqual((await list(`/api/sessions?projectIds=${project}`)).data, []);
  assert.equal((await list(`/api/sessions/summary?projectIds=${project}`)).totalSessions, 0);
  assert.equal((await list("/api/sessions/summary")).totalSessions, 1);
  assert.equal((await list("/api/tracked-users/summary")).total, 1);
  assert.deepEqual((await list(`/api/tracked-users?projectIds=${project}`)).data, []);
  assert.deepEqual((await list(`/api/tracked-users/heartbeat?ids=${trackedUser}`)).data, []);
});
