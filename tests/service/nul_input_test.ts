// A NUL character in dashboard input (query, path ids, cursors, JSON and form bodies)
// is a 400 `validation`, never a database error.
import assert from "node:assert/strict";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

const NUL = "\u0000";

Deno.test("dashboard: a NUL anywhere in the input is a 400 validation, in every place", async () => {
  await using t = await createPagesApp();
  const { cookie, organizationId, user } = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId });
  const requests: Array<[string, string, unknown?]> = [
    ["GET", "/api/sessions?search=%00"],
    ["GET", "/api/sessions?search=a%00b"],
    ["GET", "/api/sessions?cursor=%00"],
    ["GET", `/api/sessions?projectIds=${project.id}%00`],
    ["GET", "/api/sessions/abc%00"],
    ["GET", "/api/sessions/abc%00/events"],
    ["GET", "/api/sessions/abc%00/markers"],
    ["DELETE", "/api/sessions/abc%00"],
    ["GET", "/api/tracked-users?search=%00"],
    ["GET", "/api/tracked-users?cursor=x%00"],
    ["GET", "/api/tracked-users/abc%00"],
    ["GET", "/api/tracked-users/abc%00/status"],
    ["GET", "/api/tracked-users/abc%00/timeline"],
    ["GET", "/api/tracked-users/abc%00/sessions?cursor=%00"],
    ["GET", "/api/tracked-users/abc%00/activity"],
    ["PATCH", "/api/tracked-users/abc/display-name", { customName: `Ann${NUL}` }],
    ["GET", `/api/projects?organizationId=${organizationId}%00`],
    ["GET", `/api/projects/${project.id}%00/key`],
    ["PATCH", `/api/projects/${project.id}`, { name: `Shop${NUL}` }],
    ["POST", "/api/projects", { name: `New${NUL}`, organizationId }],
    ["PATCH", `/api/projects/${project.id}/display-name-trait-key`, { traitKey: `em${NUL}` }],
    ["POST", "/api/projects", { name: "New", organizationId: `${organizationId}${NUL}` }],
    ["GET", `/api/organizations/${organizationId}%00/members`],
    ["PATCH", `/api/organizations/${organizationId}`, { name: `Org${NUL}` }],
    ["POST", "/api/organizations", { name: `${NUL}` }],
    ["PATCH", "/api/organizations/active", { organizationId: `${organizationId}${NUL}` }],
    ["POST", `/api/organizations/${organizationId}/invites`, {
      email: "a@example.test",
      role: `VIEWER${NUL}`,
    }],
    ["PATCH", "/api/user", { name: `Me${NUL}` }],
    ["PATCH", "/api/user", { [`na${NUL}me`]: "Me" }],
    ["GET", "/api/user/passkeys/abc%00"],
    ["POST", "/api/user/invites/abc%00/accept"],
    ["DELETE", "/api/user/accounts/github%00"],
  ];
  for (const [method, path, body] of requests) {
    const res = await call(t.app, method, path, { cookie, body });
    const label = `${method} ${path} ${JSON.stringify(body ?? null)}`;
    assert.equal(res.status, 400, label);
    assert.equal(res.headers.get("content-type"), "application/json", label);
    assert.equal((await res.json()).kind, "validation", label);
  }
  // Pages too: the address, and a form post.
  for (const path of ["/settings/profile?x=%00", "/projects/abc%00/setup"]) {
    assert.equal((await page(t, path, { cookie })).status, 400, path);
  }
  const form = await page(t, "/settings/profile", {
    cookie,
    form: { intent: "rename", name: `Me${NUL}` },
  });
  assert.notEqual(form.status, 500);
  const row = await t.db.kysely.selectFrom("users").select("name").where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  assert.ok(!row.name?.includes(NUL));
  assert.deepEqual(t.errors, []);
});
