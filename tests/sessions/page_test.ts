// The sessions page: filters read from and written back to the URL, cursor paging, role-gated
// delete, the empty state with the snippet and the live wait, and 400 for a bad query.
import assert from "node:assert/strict";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { seedDashboard } from "@/tests/helpers/dashboard_seed.ts";
import { insertSessions } from "@/tests/helpers/sessions_factories.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

const rows = (html: string) => [...html.matchAll(/<tr data-session="([^"]+)"/g)].map((m) => m[1]);

Deno.test("sessions page: the filters come from the URL and narrow the list", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const seed = await seedDashboard(t.db.kysely, owner.organizationId);
  const path = `/sessions?projectIds=${seed.docs.id}&range=7d&sort=duration&sortDir=asc`;
  const res = await page(t, path, { cookie: owner.cookie });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("cache-control"), "no-store");
  const html = await res.text();
  assert.match(html, new RegExp(`name="projectIds" value="${seed.docs.id}" checked`));
  assert.doesNotMatch(html, new RegExp(`name="projectIds" value="${seed.shop.id}" checked`));
  assert.match(html, /<option\s+value="7d" selected>/);
  assert.match(html, /<option\s+value="duration" selected>/);
  assert.match(html, /<option\s+value="asc" selected>/);
  // Docs in the last 7 days: grace's session (3 min) and the anonymous one of 2 days (3 min).
  const shown = rows(html);
  const expected = [seed.grace.sessions[0].id, seed.anonymous[1].id];
  assert.deepEqual(new Set(shown), new Set(expected));
  assert.match(html, /data-testid="kpi-total">2</);
  assert.match(
    html,
    /"apiPath":"\/api\/sessions\?projectIds=[^"]+range=7d[^"]+sort=duration[^"]+sortDir=asc[^"]+limit=20"/,
  );
});

Deno.test("sessions page: rows link to their replay; the next page is a cursor link that keeps the filters", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const base = Date.now() - 3_600_000;
  const made = await insertSessions(
    t.db.kysely,
    project,
    // Each started 45 s before its row was created (a first flush that took a while): the
    // column must show the start, not the creation.
    Array.from({ length: 25 }, (_, i) => ({
      createdAt: new Date(base + i * 1000),
      startedAt: new Date(base + i * 1000 - 45_000),
    })),
  );
  const first = await (await page(t, "/sessions?range=7d", { cookie: owner.cookie })).text();
  assert.equal(rows(first).length, 20);
  assert.match(first, new RegExp(`href="/replays/${made[24].id}"`));
  // The Started column: each row's own start, newest first.
  assert.match(first, /<th scope="col">Started<\/th>/);
  const started = [...first.matchAll(/<tr data-session="([^"]+)"[\s\S]*?<time datetime="([^"]+)"/g)]
    .map((m) => [m[1], m[2]]);
  assert.deepEqual(
    started,
    made.slice(5).reverse().map((
      s,
      i,
    ) => [s.id, new Date(base + (24 - i) * 1000 - 45_000).toISOString()]),
  );
  const next = first.match(/href="(\/sessions\?range=7d&amp;cursor=[^"]+)"/)?.[1];
  assert.ok(next, "a next-page link");
  const second = await (await page(t, next.replaceAll("&amp;", "&"), { cookie: owner.cookie }))
    .text();
  assert.deepEqual(rows(second), made.slice(0, 5).reverse().map((s) => s.id));
});

Deno.test("sessions page: ADMIN+ get delete buttons, a VIEWER none", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  await seedDashboard(t.db.kysely, owner.organizationId);
  const admin = await signedInUser(t, { role: "ADMIN", organizationId: owner.organizationId });
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const adminHtml = await (await page(t, "/sessions", { cookie: admin.cookie })).text();
  assert.match(adminHtml, />Delete<\/button>/);
  assert.match(adminHtml, /"canDelete":true/);
  const viewerHtml = await (await page(t, "/sessions", { cookie: viewer.cookie })).text();
  assert.doesNotMatch(viewerHtml, />Delete<\/button>/);
  assert.match(viewerHtml, /"canDelete":false/);
});

Deno.test("sessions page: an empty organization shows the snippet with the key to its OWNER and waits", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const html = await (await page(t, "/sessions", { cookie: owner.cookie })).text();
  assert.match(html, /data-testid="sessions-empty"/);
  assert.match(html, /as early as possible in the <code>&lt;head&gt;<\/code>/);
  assert.ok(html.includes(`apiKey: &quot;${project.key}&quot;`));
  assert.match(html, /data-island="WaitingForFirstSession"/);
  const viewer = await signedInUser(t, { role: "VIEWER", organizationId: owner.organizationId });
  const masked = await (await page(t, "/sessions", { cookie: viewer.cookie })).text();
  assert.ok(!masked.includes(project.key));
  assert.match(masked, /Only an owner of this organization can see the project key/);
  // Filtering an empty list is not the first-run state.
  const filtered = await (await page(t, "/sessions?search=zzz", { cookie: owner.cookie })).text();
  assert.doesNotMatch(filtered, /sessions-empty/);
});

Deno.test("sessions page: an unknown range or sort, or a bad cursor, is 400", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  await seedDashboard(t.db.kysely, owner.organizationId);
  for (const q of ["range=year", "sort=name", "sortDir=up", "cursor=not-a-cursor"]) {
    await insertProject(t.db.kysely, { organizationId: owner.organizationId });
    const res = await page(t, `/sessions?${q}`, { cookie: owner.cookie });
    assert.equal(res.status, 400, q);
  }
});

Deno.test("sessions page: the search filters come from the URL, show in the bar and reach the API path", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  await seedDashboard(t.db.kysely, owner.organizationId);
  const path = "/sessions?signals=error&signals=dead_click&visited=%2Fcheckout*&device=mobile" +
    "&minDuration=60000&user=ada&search=x&browser=Firefox";
  const res = await page(t, path, { cookie: owner.cookie });
  assert.equal(res.status, 200);
  const html = await res.text();
  assert.match(html, /name="signals" value="error" checked/);
  assert.match(html, /name="signals" value="dead_click" checked/);
  assert.doesNotMatch(html, /name="signals" value="rage_click" checked/);
  assert.match(html, /name="visited" value="\/checkout\*"/);
  assert.match(html, /<option\s+value="mobile" selected>/);
  assert.match(html, /<option\s+value="60000" selected>/);
  assert.match(html, /<option\s+value="Firefox" selected>/);
  assert.match(html, /name="user" value="ada"/);
  // Empty fields of the form are "any", not errors; unknown values are 400.
  const empty = await page(t, "/sessions?visited=&browser=&device=&minDuration=", {
    cookie: owner.cookie,
  });
  assert.equal(empty.status, 200);
  for (const q of ["signals=oops", "device=phone", "minDuration=soon", "sort=loud"]) {
    assert.equal((await page(t, `/sessions?${q}`, { cookie: owner.cookie })).status, 400, q);
  }
});

Deno.test("sessions page: the web vitals filter offers each vital and rating, and any poor one", async () => {
  await using t = await createPagesApp();
  const owner = await signedInUser(t);
  const project = await insertProject(t.db.kysely, { organizationId: owner.organizationId });
  const [slow, shifty, fine] = await insertSessions(t.db.kysely, project, [{}, {}, {}]);
  const vitals = (id: string, web_vitals: string[]) =>
    t.db.kysely.updateTable("sessions").set({ web_vitals }).where("id", "=", id).execute();
  await vitals(slow.id, ["lcp:poor", "cls:good"]);
  await vitals(shifty.id, ["lcp:good", "cls:needs_improvement", "ttfb:poor"]);
  await vitals(fine.id, ["lcp:good", "inp:good"]);
  const open = async (query: string) => {
    const res = await page(t, `/sessions?${query}`, { cookie: owner.cookie });
    assert.equal(res.status, 200, query);
    return await res.text();
  };
  const html = await open("vital=cls:needs_improvement");
  const select = /<select name="vital">([\s\S]*?)<\/select>/.exec(html)?.[1] ?? "";
  const offered = [...select.matchAll(/<option\s+value="([^"]*)"/g)].map((m) => m[1]);
  assert.equal(offered.length, 1 + 1 + 5 * 3, "any, any poor, then names × ratings");
  for (const name of ["lcp", "cls", "inp", "fcp", "ttfb"]) {
    for (const rating of ["good", "needs_improvement", "poor"]) {
      assert.ok(offered.includes(`${name}:${rating}`), `${name}:${rating}`);
    }
  }
  assert.match(select, /<option\s+value="cls:needs_improvement" selected>CLS needs improvement</);
  assert.deepEqual(rows(html), [shifty.id]);
  // any poor vital: LCP's or TTFB's
  const poor = await open(
    `vital=${encodeURIComponent("lcp:poor,cls:poor,inp:poor,fcp:poor,ttfb:poor")}`,
  );
  assert.match(
    poor,
    /<option\s+value="lcp:poor,cls:poor,inp:poor,fcp:poor,ttfb:poor" selected>Any poor</,
  );
  assert.deepEqual(new Set(rows(poor)), new Set([slow.id, shifty.id]));
  // a combination the form does not offer is kept, named, and selected
  const mixed = await open("vital=inp:good&vital=lcp:poor");
  assert.match(mixed, /<option\s+value="inp:good,lcp:poor" selected>INP good or LCP poor</);
  assert.deepEqual(new Set(rows(mixed)), new Set([slow.id, fine.id]));
});
