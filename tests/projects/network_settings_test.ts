// A project's network settings (docs/decisions.md "Network capture"): off by default, PATCH with
// `network` (alone or beside other fields) changes only the settings it names, ADMIN+ only; bad
// values are 400 naming their field and store nothing; the settings page's form saves them.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { MAX_KEPT_HEADERS } from "@/core/projects/network_limits.ts";

const DEFAULTS = {
  enabled: false,
  headers: ["content-type", "content-length", "accept"],
  bodyUrls: [],
  vitals: true,
};

Deno.test("network settings: defaults off; an ADMIN's PATCH changes what it names; VIEWER 403; bad values 400", async () => {
  await using t = await createTestApp();
  const owner = await signedInUser(t);
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: owner.organizationId });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const path = `/api/projects/${project.id}`;
  const patch = (body: unknown, cookie = admin.cookie) =>
    call(t.app, "PATCH", path, { cookie, body });
  const read = async () =>
    (await (await call(t.app, "GET", path, { cookie: viewer.cookie }))
      .json()).network;
  assert.deepEqual(await read(), DEFAULTS);

  const res = await patch({
    network: { enabled: true, headers: ["X-Trace", "Accept", "x-trace"] },
  });
  assert.equal(res.status, 200);
  assert.deepEqual((await res.json()).network, {
    ...DEFAULTS,
    enabled: true,
    headers: ["x-trace", "accept"],
  });
  assert.equal((await patch({ network: { bodyUrls: ["/api/**"] }, name: "Shop 2" })).status, 200);
  assert.deepEqual(await read(), {
    ...DEFAULTS,
    enabled: true,
    headers: ["x-trace", "accept"],
    bodyUrls: ["/api/**"],
  });
  assert.equal((await patch({ network: { enabled: false } }, viewer.cookie)).status, 403);

  const atBound = Array.from({ length: MAX_KEPT_HEADERS }, (_, i) => `x-h${i}`);
  assert.equal((await patch({ network: { headers: atBound } })).status, 200);
  for (
    const bad of [
      { headers: [...atBound, "x-one-more"] },
      { headers: ["not a header"] },
      { bodyUrls: ["api/**"] },
      { enabled: "yes" },
      { vitals: 1 },
      { unknown: true },
    ]
  ) {
    const refused = await patch({ network: bad });
    assert.equal(refused.status, 400, JSON.stringify(bad));
  }
  assert.deepEqual((await read()).headers, atBound);
});
