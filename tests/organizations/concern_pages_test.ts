// The organization settings pages of one concern each (members, invites, projects): only their
// section under the shared frame, forms that post to the page itself and come back to it (303),
// and the refusal rendered on the page. The overview is tests/organizations/page_test.ts.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

const BASE = "/settings/organization";

Deno.test("organization pages: each concern's page shows its section and the tabs, not the others", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t, { role: "OWNER", email: "owner@example.test" });
  await insertProject(t.db.kysely, { organizationId: owner.organizationId, name: "Storefront" });
  const sections = { members: "Members", invites: "Invites", projects: "Projects" };
  for (const [path, heading] of Object.entries(sections)) {
    const res = await page(t, `${BASE}/${path}`, { cookie: owner.cookie });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const html = await res.text();
    assert.match(html, /<h1>Acme<\/h1>/);
    assert.ok(html.includes(`href="${BASE}/${path}" aria-current="page"`), `${path} tab current`);
    const headings = [...html.matchAll(/<h2 id="[^"]+">([^<]+)<\/h2>/g)].map((m) => m[1]);
    assert.deepEqual(headings, [heading], path);
  }
});

Deno.test("organization pages: the members page changes a role and comes back to itself", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t, { role: "OWNER" });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const membership = () =>
    t.db.kysely.selectFrom("memberships").select(["id", "role"])
      .where("user_id", "=", viewer.user.id).executeTakeFirstOrThrow();
  const res = await page(t, `${BASE}/members`, {
    cookie: owner.cookie,
    form: { intent: "change-role", memberId: (await membership()).id, role: "ADMIN" },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), `${BASE}/members?done=role`);
  assert.equal((await membership()).role, "ADMIN");
  const after = await page(t, `${BASE}/members?done=role`, { cookie: owner.cookie });
  assert.match(await after.text(), /role="status">Role changed\./);
});

Deno.test("organization pages: the invites page refuses a bad email on the page, then invites", async () => {
  await using t = await createPagesApp();
  const admin = await signedInUser(t, { role: "ADMIN" });
  const path = `${BASE}/invites`;
  const bad = await page(t, path, {
    cookie: admin.cookie,
    form: { intent: "invite", email: "not-an-email", role: "VIEWER" },
  });
  assert.equal(bad.status, 400);
  assert.match(await bad.text(), /role="alert">email: /);
  const sent = await page(t, path, {
    cookie: admin.cookie,
    form: { intent: "invite", email: "new@example.test", role: "VIEWER" },
  });
  assert.equal(sent.status, 303);
  assert.equal(sent.headers.get("location"), `${path}?done=invited`);
  const html = await (await page(t, path, { cookie: admin.cookie })).text();
  assert.match(html, /data-invite="new@example\.test"/);
});

Deno.test("organization pages: the projects page accepts only project forms", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t, { role: "OWNER" });
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const path = `${BASE}/projects`;
  const renamed = await page(t, path, {
    cookie: owner.cookie,
    form: { intent: "rename-project", projectId: project.id, name: "Shop" },
  });
  assert.equal(renamed.status, 303);
  assert.equal(renamed.headers.get("location"), `${path}?done=project-renamed`);
  const elsewhere = await page(t, path, {
    cookie: owner.cookie,
    form: { intent: "rename", name: "Not here" },
  });
  assert.equal(elsewhere.status, 400);
  assert.match(await elsewhere.text(), /unknown form action/);
  const org = await t.db.kysely.selectFrom("organizations").select("name")
    .where("id", "=", owner.organizationId).executeTakeFirstOrThrow();
  assert.equal(org.name, "Acme");
});

Deno.test("organization pages: without an active organization a page points to the overview", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t, { role: "OWNER" });
  await t.db.kysely.updateTable("users").set({ active_organization_id: null })
    .where("id", "=", owner.user.id).execute();
  const html = await (await page(t, `${BASE}/projects`, { cookie: owner.cookie })).text();
  assert.match(html, /You have no active organization/);
  assert.ok(html.includes(`<a href="${BASE}">Switch to one or create one.</a>`));
  assert.doesNotMatch(html, /<h2/);
});
