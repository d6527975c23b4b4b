// The tracked user page (/users/[id]): header and traits, the charts' window from the URL, the
// user's sessions, role-gated naming and deletion through the page's own forms, and 404 for a user
// of another organization or none, sign-in for visitors.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";
import { seedUserPage } from "@/tests/helpers/user_page_seed.ts";
import { insertSessions } from "@/tests/helpers/sessions_factories.ts";

const islandProps = (html: string) => {
  const state = html.match(/<script type="application\/json" id="__FRSH_STATE">(.*?)<\/script>/s);
  return JSON.parse(state![1]).props as Record<string, unknown>[];
};

Deno.test("user page: header, traits, the window from the URL and the sessions", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { user, sessions } = await seedUserPage(t.db.kysely, owner.organizationId);
  const res = await page(t, `/users/${user.id}?range=7d`, { cookie: owner.cookie });
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const html = await res.text();
  assert.match(html, /<title>Ada Lovelace · Users · Playhead<\/title>/);
  assert.match(html, /data-testid="user-name">Ada Lovelace</);
  assert.match(html, /data-testid="user-external-id">ada@example\.test</);
  assert.match(html, />Storefront</);
  for (const [key, value] of [["company", "Analytical Engines"], ["plan", "pro"], ["seats", "4"]]) {
    assert.match(
      html,
      new RegExp(`data-trait="${key}".*?<div class="trait-value"[^>]*>${value}</div>`, "s"),
    );
  }
  assert.match(
    html,
    /data-trait="name"><th[^>]*><code>name<\/code><span class="badge[^"]*">display name/,
  );
  // The charts island gets the window and marks it; its links keep the user.
  const charts = islandProps(html).find((p) => "range" in p);
  assert.deepEqual(charts, { userId: user.id, range: "7d" });
  assert.match(html, new RegExp(`href="/users/${user.id}\\?range=7d"\\s*aria-current="true"`));
  assert.match(html, new RegExp(`href="/users/${user.id}\\?range=6h"\\s*>`));
  assert.match(html, /data-island="OnlineStatus"/);
  assert.match(html, /\/build\/vendor\/uplot\.css/);
  // Every session, newest first, linking to its replay.
  const rows = [...html.matchAll(/<tr data-session="([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(rows, sessions.map((s) => s.id).toReversed());
  assert.match(html, new RegExp(`href="/replays/${sessions[0].id}"`));
  assert.match(html, new RegExp(`"apiPath":"/api/tracked-users/${user.id}/sessions\\?limit=20"`));
});

Deno.test("user page: the window defaults to 24 h; an unknown one is 400", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { user } = await seedUserPage(t.db.kysely, owner.organizationId);
  const html = await (await page(t, `/users/${user.id}`, { cookie: owner.cookie })).text();
  assert.equal(islandProps(html).find((p) => "range" in p)?.range, "24h");
  const res = await page(t, `/users/${user.id}?range=1y`, { cookie: owner.cookie });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /invalid query/);
});

Deno.test("user page: more than a page of sessions gives a Load more link by cursor", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { project, user } = await seedUserPage(t.db.kysely, owner.organizationId);
  const base = Date.now() - 3_600_000;
  await insertSessions(
    t.db.kysely,
    project,
    Array.from(
      { length: 20 },
      (_, i) => ({ createdAt: new Date(base + i), trackedUserId: user.id }),
    ),
  );
  const first = await (await page(t, `/users/${user.id}`, { cookie: owner.cookie })).text();
  assert.equal([...first.matchAll(/<tr data-session=/g)].length, 20);
  const next = first.match(/href="(\/users\/[^"?]+\?range=24h&amp;cursor=[^"#]+)#sessions"/)?.[1];
  assert.ok(next, "a next-page link");
  const second = await (await page(t, next.replaceAll("&amp;", "&"), { cookie: owner.cookie }))
    .text();
  assert.equal([...second.matchAll(/<tr data-session=/g)].length, 5);
});

Deno.test("user page: a VIEWER sees no naming or delete controls; an ADMIN does", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { user } = await seedUserPage(t.db.kysely, owner.organizationId);
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: owner.organizationId });
  const seen = await (await page(t, `/users/${user.id}`, { cookie: viewer.cookie })).text();
  assert.doesNotMatch(seen, /data-testid="manage-user"/);
  assert.doesNotMatch(seen, /name="customName"|value="delete-user"|>Delete<\/button>/);
  assert.match(seen, /"canDelete":false/);
  const managed = await (await page(t, `/users/${user.id}`, { cookie: admin.cookie })).text();
  assert.match(managed, /data-testid="manage-user"/);
  assert.match(managed, /name="customName"/);
  assert.match(managed, /<option\s+value="name"\s+selected>name<\/option>/);
  assert.match(managed, /value="delete-user"/);
  assert.match(managed, /"canDelete":true/);
});

Deno.test("user page: an ADMIN renames the user, names them by a trait, and clears both", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { user } = await seedUserPage(t.db.kysely, owner.organizationId);
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: owner.organizationId });
  const path = `/users/${user.id}`;
  const post = (form: Record<string, string>) =>
    page(t, path, { cookie: admin.cookie, form: { intent: "set-display-name", ...form } });

  let res = await post({ customName: "  The Countess ", traitKey: "name" });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), `${path}?done=name-saved`);
  let html = await (await page(t, `${path}?done=name-saved`, { cookie: admin.cookie })).text();
  assert.match(html, /data-testid="user-name">The Countess</);
  assert.match(html, /Display name saved\./);

  res = await post({ customName: "", traitKey: "company" });
  assert.equal(res.status, 303);
  html = await (await page(t, path, { cookie: admin.cookie })).text();
  assert.match(html, /data-testid="user-name">Analytical Engines</);
  assert.match(html, /<option\s+value="company"\s+selected>/);

  res = await post({ customName: "", traitKey: "" });
  assert.equal(res.status, 303);
  const row = await t.db.kysely.selectFrom("tracked_users").selectAll().where("id", "=", user.id)
    .executeTakeFirstOrThrow();
  assert.equal(row.custom_name, null);
  assert.equal(row.display_name_trait_key, null);
  html = await (await page(t, path, { cookie: admin.cookie })).text();
  // No name set anywhere: the user's `name` trait.
  assert.match(html, /data-testid="user-name">Ada Lovelace</);
});

Deno.test("user page: a name over 120 characters is refused on the page, unchanged", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { user } = await seedUserPage(t.db.kysely, owner.organizationId);
  const res = await page(t, `/users/${user.id}`, {
    cookie: owner.cookie,
    form: { intent: "set-display-name", customName: "x".repeat(121), traitKey: "" },
  });
  assert.equal(res.status, 400);
  assert.match(await res.text(), /role="alert">customName:/);
  const row = await t.db.kysely.selectFrom("tracked_users").select("display_name_trait_key")
    .where("id", "=", user.id).executeTakeFirstOrThrow();
  assert.equal(row.display_name_trait_key, "name");
});

Deno.test("user page: an ADMIN deletes the user; their sessions stay, anonymous", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { user, sessions } = await seedUserPage(t.db.kysely, owner.organizationId);
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: owner.organizationId });
  const res = await page(t, `/users/${user.id}`, {
    cookie: admin.cookie,
    form: { intent: "delete-user" },
  });
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), "/users?done=user-deleted");
  const gone = await page(t, `/users/${user.id}`, { cookie: admin.cookie });
  assert.equal(gone.status, 404);
  const kept = await t.db.kysely.selectFrom("sessions").select(["id", "tracked_user_id"])
    .where("id", "in", sessions.map((s) => s.id)).execute();
  assert.equal(kept.length, sessions.length);
  assert.ok(kept.every((s) => s.tracked_user_id === null));
});

Deno.test("user page: a VIEWER's posts are refused and change nothing", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { user } = await seedUserPage(t.db.kysely, owner.organizationId);
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const forms: Record<string, string>[] = [
    { intent: "delete-user" },
    { intent: "set-display-name", customName: "X", traitKey: "" },
  ];
  for (const form of forms) {
    const res = await page(t, `/users/${user.id}`, { cookie: viewer.cookie, form });
    assert.equal(res.status, 403, form.intent);
  }
  const row = await t.db.kysely.selectFrom("tracked_users").selectAll().where("id", "=", user.id)
    .executeTakeFirst();
  assert.equal(row?.custom_name, null);
});

Deno.test("user page: another organization's user and an unknown id are 404; visitors sign in", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { user } = await seedUserPage(t.db.kysely, owner.organizationId);
  const stranger = await signedInUser(t); // OWNER of another organization
  const theirs = await page(t, `/users/${user.id}`, { cookie: stranger.cookie });
  assert.equal(theirs.status, 404);
  assert.doesNotMatch(await theirs.text(), /Ada Lovelace/);
  const posted = await page(t, `/users/${user.id}`, {
    cookie: stranger.cookie,
    form: { intent: "delete-user" },
  });
  assert.equal(posted.status, 404);
  assert.equal((await page(t, "/users/nope", { cookie: owner.cookie })).status, 404);
  const visitor = await page(t, `/users/${user.id}?range=6h`);
  assert.equal(visitor.status, 303);
  const location = new URL(visitor.headers.get("location")!, "http://x");
  assert.equal(location.pathname, "/signin");
  assert.equal(location.searchParams.get("next"), `/users/${user.id}?range=6h`);
});

Deno.test("user page: the project's default trait key, set by an ADMIN in settings, names users", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { project, user } = await seedUserPage(t.db.kysely, owner.organizationId);
  await t.db.kysely.updateTable("tracked_users").set({ display_name_trait_key: null })
    .where("id", "=", user.id).execute();
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: owner.organizationId });
  const settings = "/settings/organization/projects";
  const save = (traitKey: string, cookie = admin.cookie) =>
    page(t, settings, {
      cookie,
      form: { intent: "set-trait-key", projectId: project.id, traitKey },
    });

  const res = await save(" company ");
  assert.equal(res.status, 303);
  assert.equal(res.headers.get("location"), `${settings}?done=trait-key-saved`);
  const form = await (await page(t, settings, { cookie: admin.cookie })).text();
  assert.match(form, /name="traitKey"\s+value="company"/);
  let html = await (await page(t, `/users/${user.id}`, { cookie: admin.cookie })).text();
  assert.match(html, /data-testid="user-name">Analytical Engines</);
  assert.match(html, /default trait\s*\(<code>company<\/code>\)/);

  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  assert.equal((await save("plan", viewer.cookie)).status, 403);
  assert.equal((await save("")).status, 303); // empty clears it
  html = await (await page(t, `/users/${user.id}`, { cookie: admin.cookie })).text();
  assert.match(html, /data-testid="user-name">Ada Lovelace</);
});
