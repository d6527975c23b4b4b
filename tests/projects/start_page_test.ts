// The start page: signed in, the active organization's projects with their session
// counts and last activity, each leading to its sessions; the empty and signed-out states.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";

/** The table row of the named project. */
function rowOf(html: string, name: string): string {
  const row = html.match(new RegExp(`<tr\\s+data-project="${name}">.*?</tr>`, "s"))?.[0];
  assert.ok(row, `a row for ${name}`);
  return row;
}

Deno.test("start page: the organization's projects with session counts and last activity, linking to Sessions", async () => {
  await using t = await createPagesApp();
  const db = t.db.kysely;
  const owner = await signedInUser(t);
  await db.updateTable("organizations").set({ name: "Acme & Co" })
    .where("id", "=", owner.organizationId).execute();
  const shop = await insertProject(db, { organizationId: owner.organizationId, name: "Shop" });
  const docs = await insertProject(db, { organizationId: owner.organizationId, name: "Docs" });
  for (let i = 0; i < 3; i++) await insertSession(db, shop);
  const lastUsed = new Date(Date.now() - 5 * 60_000);
  await db.updateTable("projects").set({ last_used_at: lastUsed }).where("id", "=", shop.id)
    .execute();
  // Another organization's project is not listed.
  await insertProject(db, { name: "Elsewhere" });

  const res = await page(t, "/", { cookie: owner.cookie });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const html = await res.text();
  assert.match(html, /<title>Overview · Playhead<\/title>/);
  assert.match(html, /<h1>Acme &amp; Co<\/h1>/);
  assert.match(html, /2 projects · 3 recorded sessions/);
  assert.match(html, /<a class="button button-primary" href="\/sessions">Open Sessions<\/a>/);
  assert.doesNotMatch(html, /Elsewhere/);

  const shopRow = rowOf(html, "Shop");
  assert.ok(shopRow.includes(`<a href="/sessions?projectIds=${shop.id}">Shop</a>`));
  assert.match(shopRow, /<td class="num">3<\/td>/);
  assert.ok(shopRow.includes(`<time datetime="${lastUsed.toISOString()}"`), shopRow);
  assert.match(shopRow, /5 minutes ago/);
  assert.ok(shopRow.includes(`href="/projects/${shop.id}/setup"`));

  const docsRow = rowOf(html, "Docs");
  assert.match(docsRow, /<td class="num">0<\/td>/);
  assert.match(docsRow, /No data yet/);
  assert.ok(docsRow.includes(`href="/sessions?projectIds=${docs.id}"`));
});

Deno.test("start page: with no projects, an OWNER is offered to create one and a VIEWER is not", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const ownerHtml = await (await page(t, "/", { cookie: owner.cookie })).text();
  assert.match(ownerHtml, /data-testid="projects-empty"/);
  assert.match(ownerHtml, /href="\/settings\/organization">Create a project</);
  assert.doesNotMatch(ownerHtml, /Open Sessions/);

  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const viewerHtml = await (await page(t, "/", { cookie: viewer.cookie })).text();
  assert.match(viewerHtml, /data-testid="projects-empty"/);
  assert.doesNotMatch(viewerHtml, /Create a project/);
  assert.match(viewerHtml, /Ask an owner/);
});

Deno.test("start page: without an active organization it says so; signed out it offers sign-in", async () => {
  await using t = await createPagesApp();
  const lost = await signedInUser(t);
  await t.db.kysely.deleteFrom("memberships").where("user_id", "=", lost.user.id).execute();
  const lostHtml = await (await page(t, "/", { cookie: lost.cookie })).text();
  assert.match(lostHtml, /data-testid="no-organization"/);
  assert.doesNotMatch(lostHtml, /project-overview/);

  const out = await page(t, "/");
  assert.equal(out.status, 200);
  const outHtml = await out.text();
  assert.match(outHtml, /<a class="button button-primary" href="\/signin">Sign in<\/a>/);
  assert.doesNotMatch(outHtml, /project-overview|projects-empty|no-organization/);
  assert.match(outHtml, /Service status/);
});
