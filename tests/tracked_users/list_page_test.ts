// The users page: KPIs, filters read from and written back to the URL, status filter and sorts,
// cursor paging that keeps the filters, the first-run and no-match states, no destructive controls,
// sign-in redirect, other organizations' users never listed, and 400 for a bad query.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { seedDashboard } from "@/tests/helpers/dashboard_seed.ts";
import { DAY, MINUTE, seedTrackedUser } from "@/tests/helpers/tracked_users_factories.ts";
import { createPagesApp, page, type PagesApp } from "@/tests/helpers/pages.ts";

const rows = (html: string) => [...html.matchAll(/<tr data-user="([^"]+)"/g)].map((m) => m[1]);
const statuses = (html: string) =>
  [...html.matchAll(/<tr data-user="[^"]+" data-status="([^"]+)"/g)].map((m) => m[1]);

/** The props the page hands the TrackedUserTable island. */
function tableProps(html: string): { apiPath: string; refreshMs: number } {
  const state = JSON.parse(html.match(/id="__FRSH_STATE">(.*?)<\/script>/)![1]);
  const index = Number(html.match(/data-island="TrackedUserTable" data-props="(\d+)"/)![1]);
  return state.props[index];
}

/** seedDashboard's Ada (active 24 h, 3 sessions) and Grace (idle 7 d), plus one online user and
 * one dormant user of the Storefront. */
async function seedUsers(t: PagesApp, organizationId: string) {
  const seed = await seedDashboard(t.db.kysely, organizationId);
  const now = Date.now();
  const online = await seedTrackedUser(t.db.kysely, seed.shop, {
    externalId: "lin-online",
    traits: { name: "Lin", plan: "team" },
    traitKey: "name",
    createdAt: new Date(now - DAY),
    sessions: [
      { start: now - 3 * MINUTE, durationMs: 2 * MINUTE },
      { start: now - 2 * DAY, durationMs: 30 * MINUTE },
    ],
  });
  const dormant = await seedTrackedUser(t.db.kysely, seed.shop, {
    externalId: "old-timer",
    createdAt: new Date(now - 20 * DAY),
    sessions: [{ start: now - 9 * DAY, durationMs: 5 * MINUTE }],
  });
  return { ...seed, lin: online, dormant };
}

Deno.test("users page: KPIs, and every row with its status, name link, traits, project and numbers", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const seed = await seedUsers(t, owner.organizationId);
  const res = await page(t, "/users", { cookie: owner.cookie });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
  const html = await res.text();
  assert.match(html, /<title>Users · Playhead<\/title>/);
  assert.match(html, /<a\s+href="\/users" aria-current="page">Users<\/a>/);
  assert.match(html, /data-testid="kpi-total">4</);
  assert.match(html, /data-testid="kpi-online">1</);
  assert.match(html, /data-testid="kpi-24h">2</);
  assert.match(html, /data-testid="kpi-new">2</); // Lin (1 d) and Ada (3 d); Grace is 10 d old
  // Default sort: last seen, newest first.
  const { ada, grace, lin, dormant } = seed;
  assert.deepEqual(rows(html), [lin.user.id, ada.user.id, grace.user.id, dormant.user.id]);
  assert.deepEqual(statuses(html), ["ONLINE", "ACTIVE_24H", "IDLE_7D", "DORMANT"]);
  assert.match(html, /data-online="true" data-testid="online-dot"/);
  assert.equal(html.match(/data-online="true"/g)?.length, 1);
  // Ada's row: display name from her trait, linked to her page, id beneath, traits, project.
  const adaRow = html.slice(html.indexOf(`data-user="${ada.user.id}"`)).split("</tr>")[0];
  assert.match(
    adaRow,
    new RegExp(
      `href="/users/${ada.user.id}"><bdi class="visitor-text"[^>]*>Ada Lovelace</bdi></a>`,
    ),
  );
  assert.match(adaRow, />ada@example\.test</);
  assert.match(adaRow, /title="name: Ada Lovelace\nplan: pro\nseats: 4"/);
  assert.match(adaRow, />name: Ada Lovelace · plan: pro · \+1 more</);
  assert.match(adaRow, />Storefront</);
  assert.match(adaRow, /<td class="num">3<\/td>/);
  assert.match(adaRow, />45 min</); // 12 + 25 + 8 minutes
  assert.match(adaRow, /<time datetime="[^"]+" title="[^"]+ UTC">\d+ minutes ago<\/time>/);
  // The island gets the interval of the live parts from the configuration.
  assert.equal(tableProps(html).refreshMs, 20_000);
  assert.deepEqual(t.errors, []);
});

Deno.test("users page: the filters come from the URL, narrow the list, and go back into it", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { ada, grace } = await seedUsers(t, owner.organizationId);
  const path = "/users?statuses=ACTIVE_24H&statuses=IDLE_7D&sort=sessions&sortDir=asc";
  const html = await (await page(t, path, { cookie: owner.cookie })).text();
  assert.match(html, /name="statuses" value="ACTIVE_24H" checked/);
  assert.match(html, /name="statuses" value="IDLE_7D" checked/);
  assert.doesNotMatch(html, /name="statuses" value="ONLINE" checked/);
  assert.doesNotMatch(html, /name="statuses" value="DORMANT" checked/);
  assert.match(html, /<option\s+value="sessions" selected>/);
  assert.match(html, /<option\s+value="asc" selected>/);
  assert.deepEqual(rows(html), [grace.user.id, ada.user.id]); // 1 session, then 3
  assert.equal(
    tableProps(html).apiPath,
    "/api/tracked-users?statuses=ACTIVE_24H%2CIDLE_7D&sort=sessions&sortDir=asc&limit=25",
  );
  // The comma-separated form of the API is read as well; search matches name or id.
  const searched = await (await page(t, "/users?search=lovelace&statuses=ACTIVE_24H,IDLE_7D", {
    cookie: owner.cookie,
  })).text();
  assert.deepEqual(rows(searched), [ada.user.id]);
  assert.match(searched, /name="search" value="lovelace"/);
});

Deno.test("users page: each status filter and each sort", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { ada, grace, lin, dormant } = await seedUsers(t, owner.organizationId);
  const list = async (query: string) =>
    rows(await (await page(t, `/users?${query}`, { cookie: owner.cookie })).text());
  assert.deepEqual(await list("statuses=ONLINE"), [lin.user.id]);
  assert.deepEqual(await list("statuses=ACTIVE_24H"), [ada.user.id]);
  assert.deepEqual(await list("statuses=IDLE_7D"), [grace.user.id]);
  assert.deepEqual(await list("statuses=DORMANT"), [dormant.user.id]);
  assert.deepEqual(await list("sortDir=asc"), [dormant, grace, ada, lin].map((u) => u.user.id));
  assert.deepEqual((await list("sort=sessions")).slice(0, 2), [ada.user.id, lin.user.id]);
  // Active time: Ada 45 min, Lin 32 min, Grace 3 min... Dormant 5 min (9 days old: still counted).
  assert.deepEqual(
    await list("sort=active-time"),
    [ada, lin, dormant, grace].map((u) => u.user.id),
  );
  assert.deepEqual(await list("sort=newest"), [lin, ada, grace, dormant].map((u) => u.user.id));
});

Deno.test("users page: the next page is a cursor link that keeps the filters", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const now = Date.now();
  const made = [];
  for (let i = 0; i < 27; i++) {
    made.push(
      (await seedTrackedUser(t.db.kysely, project, {
        externalId: `user-${String(i).padStart(2, "0")}`,
        sessions: [{ start: now - DAY + i * MINUTE }],
      })).user,
    );
  }
  const first = await (await page(t, "/users?statuses=ACTIVE_24H", { cookie: owner.cookie }))
    .text();
  assert.equal(rows(first).length, 25);
  const next = first.match(/href="(\/users\?statuses=ACTIVE_24H&amp;cursor=[^"]+)"/)?.[1];
  assert.ok(next, "a next-page link");
  const second = await (await page(t, next.replaceAll("&amp;", "&"), { cookie: owner.cookie }))
    .text();
  assert.deepEqual(rows(second), [made[1].id, made[0].id]);
  assert.match(second, /end of the list/);
});

Deno.test("users page: no tracked users yet explains identify(); no match is its own state", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const empty = await (await page(t, "/users", { cookie: owner.cookie })).text();
  assert.match(empty, /data-testid="users-empty"/);
  assert.match(empty, /Playhead\.identify\(currentUser\.id/);
  assert.doesNotMatch(empty, /users-table/);

  await seedUsers(t, owner.organizationId);
  const none = await (await page(t, "/users?search=nobody-like-this", { cookie: owner.cookie }))
    .text();
  assert.match(none, /data-testid="users-no-match"/);
  assert.doesNotMatch(none, /users-empty/);
  assert.match(none, /name="search" value="nobody-like-this"/);
  // A filter on an organization with no users at all is a no-match too, not the first run.
  const other = await signedInUser(t);
  const filtered = await (await page(t, "/users?statuses=ONLINE", { cookie: other.cookie })).text();
  assert.match(filtered, /data-testid="users-no-match"/);
});

Deno.test("users page: a VIEWER sees the list and no destructive control", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const { ada } = await seedUsers(t, owner.organizationId);
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const res = await page(t, "/users", { cookie: viewer.cookie });
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.ok(rows(html).includes(ada.user.id));
  assert.doesNotMatch(html, /Delete|Rename|method="post" action="\/users/);
});

Deno.test("users page: signed out goes to sign-in and back; another organization's users are never listed", async () => {
  await using t = await createPagesApp();
  const signedOut = await page(t, "/users?statuses=ONLINE");
  assert.equal(signedOut.status, 303);
  assert.equal(
    signedOut.headers.get("location"),
    `/signin?next=${encodeURIComponent("/users?statuses=ONLINE")}`,
  );

  const owner = await signedInUser(t);
  const seed = await seedUsers(t, owner.organizationId);
  const stranger = await signedInUser(t);
  const theirs = await insertProject(t.db.kysely, { organizationId: stranger.organizationId });
  const own = await seedTrackedUser(t.db.kysely, theirs, { externalId: "their-user" });
  const html = await (await page(t, "/users?sort=newest", { cookie: stranger.cookie })).text();
  assert.deepEqual(rows(html), [own.user.id]);
  assert.match(html, /data-testid="kpi-total">1</);
  for (const u of [seed.ada, seed.grace, seed.lin, seed.dormant]) {
    assert.ok(!html.includes(u.user.id), "no id of organization 1");
  }
  assert.ok(!html.includes("Ada Lovelace"));
});

Deno.test("users page: an unknown status, sort, order or a bad cursor is 400", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  await seedUsers(t, owner.organizationId);
  for (const q of ["statuses=AWAY", "sort=name", "sortDir=up", "cursor=not-a-cursor"]) {
    const res = await page(t, `/users?${q}`, { cookie: owner.cookie });
    assert.equal(res.status, 400, q);
  }
});
