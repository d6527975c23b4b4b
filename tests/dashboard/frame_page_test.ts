// The frame of every dashboard page: the top bar (sections, current one marked, organization
// switcher, sign-out), page titles, no-store for signed-in pages, the demo banner, landing on
// Sessions after sign-in.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertMembership, insertOrganization } from "@/tests/helpers/factories.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

Deno.test("frame: the top bar marks the current section and names the active organization", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t, { role: "VIEWER" });
  for (
    const [path, current] of [["/sessions", "Sessions"], [
      "/settings/profile",
      "Settings",
    ]]
  ) {
    const res = await page(t, path, { cookie: viewer.cookie });
    assert.equal(res.status, 200, path);
    assert.equal(res.headers.get("cache-control"), "no-store", path);
    const html = await res.text();
    const marked = [...html.matchAll(/<a\s+href="[^"]+" aria-current="page">([^<]+)<\/a>/g)]
      .map((m) => m[1]);
    assert.ok(marked.includes(current), `${path}: ${marked}`);
    assert.match(html, /aria-label="Organization: Acme\. Switch organization"/);
    assert.match(html, /<form method="post" action="\/signout">/);
  }
  const sessions = await (await page(t, "/sessions", { cookie: viewer.cookie })).text();
  assert.match(sessions, /<title>Sessions · Playhead<\/title>/);
});

Deno.test("frame: signed out, the start page has no sections and no switcher", async () => {
  await using t = await createPagesApp();
  const res = await page(t, "/");
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.doesNotMatch(html, /aria-label="Main"/);
  assert.doesNotMatch(html, /organization-switcher/);
  assert.match(html, /href="\/signin">Sign in</);
});

Deno.test("frame: the demo banner shows on every page only in demo mode", async () => {
  await using demo = await createPagesApp({ NEXT_PUBLIC_SERVICE_DEMO_MODE: "true" });
  const viewer = await signedInUser(demo);
  for (const path of ["/", "/signin", "/sessions", "/nope"]) {
    const html =
      await (await page(demo, path, { cookie: path === "/signin" ? undefined : viewer.cookie }))
        .text();
    assert.match(html, /data-testid="demo-banner"/, path);
    assert.match(html, /Public demo\./, path);
  }
  await using plain = await createPagesApp();
  assert.doesNotMatch(await (await page(plain, "/signin")).text(), /demo-banner/);
});

Deno.test("frame: sign-in lands on Sessions unless another page was asked for", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t);
  const res = await page(t, "/signin", { cookie: viewer.cookie });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/sessions");
  const back = await page(t, "/signin?next=%2Fusers%3Fsort%3Dsessions", { cookie: viewer.cookie });
  assert.equal(back.headers.get("location"), "/users?sort=sessions");
  const form = await (await page(t, "/signin")).text();
  assert.match(form, /&quot;next&quot;:&quot;\/sessions&quot;|"next":"\/sessions"/);
});

Deno.test("frame: the switcher switches to another of the viewer's organizations and comes back", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t);
  const other = await insertOrganization(t.db.kysely, "Globex");
  await insertMembership(t.db.kysely, other.id, viewer.user.id, "VIEWER");
  const html = await (await page(t, "/sessions", { cookie: viewer.cookie })).text();
  assert.match(html, /value="Globex"|<span>Globex<\/span>/);

  const res = await page(t, "/organizations/switch", {
    cookie: viewer.cookie,
    form: { organizationId: other.id, next: "/sessions?range=7d" },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/sessions");
  const after = await (await page(t, "/sessions", { cookie: viewer.cookie })).text();
  assert.match(after, /aria-label="Organization: Globex\. Switch organization"/);

  // A user page of the organization left behind falls back to the list.
  const back = await page(t, "/organizations/switch", {
    cookie: viewer.cookie,
    form: { organizationId: viewer.organizationId, next: "/users/abc" },
  });
  assert.equal(back.headers.get("location"), "/users");
});

Deno.test("frame: switching to an organization the viewer is not in is 404 and changes nothing", async () => {
  await using t = await createPagesApp();
  const viewer = await signedInUser(t);
  const foreign = await insertOrganization(t.db.kysely, "Initech");
  const res = await page(t, "/organizations/switch", {
    cookie: viewer.cookie,
    form: { organizationId: foreign.id, next: "/sessions" },
  });
  assert.equal(res.status, 404);
  const user = await t.db.kysely.selectFrom("users").select("active_organization_id")
    .where("id", "=", viewer.user.id).executeTakeFirstOrThrow();
  assert.equal(user.active_organization_id, viewer.organizationId);
  const bad = await page(t, "/organizations/switch", {
    cookie: viewer.cookie,
    form: { next: "/" },
  });
  assert.equal(bad.status, 400);
});
