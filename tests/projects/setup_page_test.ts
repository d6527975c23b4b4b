// The first-run page: the SDK snippet with the project's key for OWNERs, masked for others.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

/** The snippet's text as shown, entities decoded. */
function snippetIn(html: string): string | undefined {
  const code = html.match(/<code data-testid="sdk-snippet">([^<]*)<\/code>/)?.[1];
  return code?.replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&quot;", '"')
    .replaceAll("&amp;", "&");
}

Deno.test("setup page: an OWNER gets the snippet with the full key and a copy button", async () => {
  await using t = await createPagesApp({ APP_URL: "https://playhead.example.com" });
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const res = await page(t, `/projects/${project.id}/setup`, { cookie: owner.cookie });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const html = await res.text();
  assert.match(html, /<h1>Set up Storefront<\/h1>/);
  assert.equal(
    snippetIn(html),
    `<script src="https://playhead.example.com/sdk/v1/playhead.js"></script>\n` +
      `<script>Playhead.init({ apiKey: "${project.key}", endpoint: "https://playhead.example.com" })</script>`,
  );
  assert.match(html, /data-island="CopyButton"/);
  // One placement rule everywhere, the one the SDK's README gives: early in <head>.
  assert.match(html, /as early as possible in the <code>&lt;head&gt;<\/code>/);
  assert.doesNotMatch(html, /&lt;\/body&gt;/);
});

Deno.test("setup page: ADMIN and VIEWER see a masked key and a note", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  for (const role of ["ADMIN", "VIEWER"] as const) {
    const member = await signedInUser(t, { role, organizationId: owner.organizationId });
    const html = await (await page(t, `/projects/${project.id}/setup`, { cookie: member.cookie }))
      .text();
    assert.ok(!html.includes(project.key), role);
    assert.ok(html.includes(project.key.slice(0, 7) + "•".repeat(24)), role);
    assert.match(html, /Only an owner of this organization can see the project key/);
    assert.doesNotMatch(html, /data-island="CopyButton"/);
  }
});

Deno.test("setup page: a project of another organization or an unknown id is 404", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t);
  const foreign = await insertProject(t.db.kysely);
  for (const id of [foreign.id, "nope"]) {
    const res = await page(t, `/projects/${id}/setup`, { cookie: viewer.cookie });
    assert.equal(res.status, 404);
    assert.ok(!(await res.text()).includes(foreign.key));
  }
});
