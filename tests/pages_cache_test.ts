// Pages show account and organization data, so no page may be stored by a cache.
import assert from "node:assert/strict";
import { signedInUser } from "./helpers/auth.ts";
import { insertProject } from "./helpers/factories.ts";
import { createPagesApp, page } from "./helpers/pages.ts";

Deno.test("pages: every page a signed-in viewer sees answers Cache-Control: no-store", async () => {
  await using t = await createPagesApp();
  const { cookie, organizationId } = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId });
  const paths = [
    "/",
    "/settings/profile",
    "/settings/organization",
    "/invites",
    "/users",
    `/projects/${project.id}/setup`,
    "/signin",
    "/no-such-page",
  ];
  for (const path of paths) {
    const res = await page(t, path, { cookie });
    assert.ok(res.status < 500, path);
    assert.equal(res.headers.get("cache-control"), "no-store", path);
  }
  const signedOut = await page(t, "/signin");
  assert.equal(signedOut.headers.get("cache-control"), "no-store");
  assert.deepEqual(t.errors, []);
});
