// The organization settings page: each role sees only the controls it may use (docs/decisions.md
// "Roles"), and every form answers 303 and changes data — or re-renders with the refusal.
import assert from "node:assert/strict";
import type { Role } from "@/db/schema.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { createPagesApp, page, type PagesApp } from "@/tests/helpers/pages.ts";

const PATH = "/settings/organization";

/** An OWNER's organization with one project, and a member of `role` signed in to it. */
async function orgWith(t: PagesApp, role: Role) {
  const owner = await signedInUser(t, { role: "OWNER", email: "owner@example.test" });
  const project = await insertProject(t.db.kysely, {
    organizationId: owner.organizationId,
    name: "Storefront",
  });
  const member = role === "OWNER"
    ? owner
    : await signedInUser(t, { role, organizationId: owner.organizationId });
  return { owner, member, project };
}

const CONTROLS = {
  renameOrg: /value="rename">Rename</,
  roleSelect: /value="change-role">Save role</,
  removeOther: /value="remove-member" class="danger">Remove /,
  leave: /value="remove-member" class="danger">Leave</,
  keyIsland: /data-island="ProjectKey"/,
  renameProject: /value="rename-project">Rename</,
  projectTraitKey: /value="set-trait-key">Save</,
  regenerate: /value="regenerate-key"/,
  deleteProject: /value="delete-project"/,
  createProject: /value="create-project"/,
  deleteOrg: /name="intent" value="delete" class="danger"/,
  sendInvite: /value="invite">Send invite</,
};
type Control = keyof typeof CONTROLS;

const VISIBLE: Record<Role, Control[]> = {
  OWNER: Object.keys(CONTROLS) as Control[],
  ADMIN: ["renameOrg", "leave", "renameProject", "projectTraitKey", "sendInvite"],
  VIEWER: ["leave"],
};

for (const role of ["OWNER", "ADMIN", "VIEWER"] as const) {
  Deno.test(`organization page: ${role} sees exactly the controls of the role`, async () => {
    await using t = await createPagesApp();
    const { member, project } = await orgWith(t, role);
    const res = await page(t, PATH, { cookie: member.cookie });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const html = await res.text();
    assert.match(html, /<h1>Acme<\/h1>/);
    assert.ok(html.includes(`<span class="badge">${role}</span>`));
    assert.match(html, /owner@example\.test/);
    assert.ok(html.includes(project.key.slice(0, 7) + "•".repeat(24)), "masked key shown");
    assert.ok(!html.includes(project.key), "the full key is never in the page");
    assert.match(html, /href="\/projects\/[^"]+\/setup">Set up recording/);
    for (const [name, pattern] of Object.entries(CONTROLS) as [Control, RegExp][]) {
      const expected = VISIBLE[role].includes(name);
      // An OWNER alone in the org has no one else to remove; here there is nobody else either.
      if (role === "OWNER" && name === "removeOther") continue;
      assert.equal(pattern.test(html), expected, `${role} ${name}`);
    }
  });
}

Deno.test("organization page: an OWNER can remove other members", async () => {
  await using t = await createPagesApp();
  const { owner } = await orgWith(t, "VIEWER");
  const html = await (await page(t, PATH, { cookie: owner.cookie })).text();
  assert.match(html, CONTROLS.removeOther);
});

Deno.test("organization page: rename (ADMIN) answers 303; a VIEWER gets 403 and no change", async () => {
  await using t = await createPagesApp();
  const { member, owner } = await orgWith(t, "ADMIN");
  const res = await page(t, PATH, {
    cookie: member.cookie,
    form: { intent: "rename", name: "Beta" },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), `${PATH}?done=renamed`);
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const refused = await page(t, PATH, {
    cookie: viewer.cookie,
    form: { intent: "rename", name: "Gamma" },
  });
  assert.equal(refused.status, 403);
  assert.match(await refused.text(), /role="alert">this needs the ADMIN role or higher/);
  const org = await t.db.kysely.selectFrom("organizations").select("name")
    .where("id", "=", owner.organizationId).executeTakeFirstOrThrow();
  assert.equal(org.name, "Beta");
});

Deno.test("organization page: create, then switch between organizations", async () => {
  await using t = await createPagesApp();
  const { owner } = await orgWith(t, "OWNER");
  const created = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "create", name: "Side project" },
  });
  assert.equal(created.status, 303);
  assert.equal(created.headers.get("location"), `${PATH}?done=created`);
  let html = await (await page(t, PATH, { cookie: owner.cookie })).text();
  assert.match(html, /<h1>Side project<\/h1>/);
  assert.match(html, /<option\s+value="[^"]+">Acme \(OWNER\)<\/option>/);

  const switched = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "switch", organizationId: owner.organizationId },
  });
  assert.equal(switched.status, 303);
  html = await (await page(t, PATH, { cookie: owner.cookie })).text();
  assert.match(html, /<h1>Acme<\/h1>/);
});

Deno.test("organization page: OWNER changes a role and removes a member; last owner kept", async () => {
  await using t = await createPagesApp();
  const { owner, member } = await orgWith(t, "VIEWER");
  const db = t.db.kysely;
  const membership = (userId: string) =>
    db.selectFrom("memberships").selectAll().where("user_id", "=", userId).executeTakeFirst();
  const target = (await membership(member.user.id))!;

  const res = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "change-role", memberId: target.id, role: "ADMIN" },
  });
  assert.equal(res.status, 303);
  assert.equal((await membership(member.user.id))?.role, "ADMIN");

  const self = (await membership(owner.user.id))!;
  const demote = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "change-role", memberId: self.id, role: "VIEWER" },
  });
  assert.equal(demote.status, 409);
  assert.equal((await membership(owner.user.id))?.role, "OWNER");

  const removed = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "remove-member", memberId: target.id },
  });
  assert.equal(removed.status, 303);
  assert.equal(await membership(member.user.id), undefined);
});

Deno.test("organization page: a member leaves", async () => {
  await using t = await createPagesApp();
  const { member } = await orgWith(t, "VIEWER");
  const own = await t.db.kysely.selectFrom("memberships").select("id")
    .where("user_id", "=", member.user.id).executeTakeFirstOrThrow();
  const res = await page(t, PATH, {
    cookie: member.cookie,
    form: { intent: "remove-member", memberId: own.id },
  });
  assert.equal(res.status, 303);
  const html = await (await page(t, PATH, { cookie: member.cookie })).text();
  assert.match(html, /You have no active organization/);
});

Deno.test("organization page: projects are created, renamed, re-keyed and deleted", async () => {
  await using t = await createPagesApp();
  const { owner, project } = await orgWith(t, "OWNER");
  const db = t.db.kysely;
  const row = (id: string) =>
    db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirst();

  const created = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "create-project", name: "Docs" },
  });
  assert.equal(created.status, 303);
  assert.match(created.headers.get("location") ?? "", /^\/projects\/[^/]+\/setup$/);

  const renamed = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "rename-project", projectId: project.id, name: "Shop" },
  });
  assert.equal(renamed.status, 303);
  assert.equal((await row(project.id))?.name, "Shop");

  const rekeyed = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "regenerate-key", projectId: project.id },
  });
  assert.equal(rekeyed.status, 303);
  assert.equal(rekeyed.headers.get("location"), `${PATH}?done=key-regenerated`);
  assert.notEqual((await row(project.id))?.key, project.key);

  const wrong = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "delete-project", projectId: project.id, confirmation: "delete" },
  });
  assert.equal(wrong.status, 400);
  assert.ok(await row(project.id));
  const deleted = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "delete-project", projectId: project.id, confirmation: "delete project" },
  });
  assert.equal(deleted.status, 303);
  assert.equal(await row(project.id), undefined);
});

Deno.test("organization page: an ADMIN cannot regenerate a key (403, unchanged)", async () => {
  await using t = await createPagesApp();
  const { member, project } = await orgWith(t, "ADMIN");
  const res = await page(t, PATH, {
    cookie: member.cookie,
    form: { intent: "regenerate-key", projectId: project.id },
  });
  assert.equal(res.status, 403);
  const row = await t.db.kysely.selectFrom("projects").select("key")
    .where("id", "=", project.id).executeTakeFirstOrThrow();
  assert.equal(row.key, project.key);
});

Deno.test("organization page: deleting the organization needs the phrase", async () => {
  await using t = await createPagesApp();
  const { owner } = await orgWith(t, "OWNER");
  const org = () =>
    t.db.kysely.selectFrom("organizations").select("id").where("id", "=", owner.organizationId)
      .executeTakeFirst();
  const wrong = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "delete", confirmation: "delete organisation" },
  });
  assert.equal(wrong.status, 400);
  assert.ok(await org());
  const res = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "delete", confirmation: "delete organization" },
  });
  assert.equal(res.status, 303);
  assert.equal(await org(), undefined);
  const html = await (await page(t, `${PATH}?done=deleted`, { cookie: owner.cookie })).text();
  assert.match(html, /Organization deleted\./);
});

Deno.test("organization page: an unknown form action is a 400, not a 500", async () => {
  await using t = await createPagesApp();
  const { owner } = await orgWith(t, "OWNER");
  const res = await page(t, PATH, { cookie: owner.cookie, form: { intent: "explode" } });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /unknown form action/);
  assert.deepEqual(t.errors, []);
});

Deno.test("organization page: ADMIN invites, resends and revokes; VIEWER sees the list only", async () => {
  await using t = await createPagesApp();
  const { member: admin, owner } = await orgWith(t, "ADMIN");
  const db = t.db.kysely;
  const invite = () =>
    db.selectFrom("invites").selectAll().where("email", "=", "new@example.test").executeTakeFirst();

  const sent = await page(t, PATH, {
    cookie: admin.cookie,
    form: { intent: "invite", email: " New@Example.test ", role: "ADMIN" },
  });
  assert.equal(sent.status, 303);
  assert.equal(sent.headers.get("location"), `${PATH}?done=invited`);
  const row = (await invite())!;
  assert.equal(row.role, "ADMIN");
  assert.equal(row.status, "PENDING");

  const asOwner = await page(t, PATH, {
    cookie: owner.cookie,
    form: { intent: "invite", email: "x@example.test", role: "OWNER" },
  });
  assert.equal(asOwner.status, 400, "nobody is invited as OWNER");

  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const html = await (await page(t, PATH, { cookie: viewer.cookie })).text();
  assert.match(
    html,
    /<tr\s+data-invite="new@example\.test"><td>new@example\.test<\/td><td>ADMIN<\/td><td>PENDING/,
  );
  assert.doesNotMatch(html, /value="revoke-invite"/);
  const refused = await page(t, PATH, {
    cookie: viewer.cookie,
    form: { intent: "revoke-invite", inviteId: row.id },
  });
  assert.equal(refused.status, 403);

  const resent = await page(t, PATH, {
    cookie: admin.cookie,
    form: { intent: "resend-invite", inviteId: row.id },
  });
  assert.equal(resent.status, 303);
  const revoked = await page(t, PATH, {
    cookie: admin.cookie,
    form: { intent: "revoke-invite", inviteId: row.id },
  });
  assert.equal(revoked.status, 303);
  assert.equal(await invite(), undefined);
});
