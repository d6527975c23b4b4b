// Dashboard pages while the database cannot be reached: a 503 page with Retry-After
// and no-store, logged at warn as the API's 503s are, never a 500. The real outage (PostgreSQL
// stopped and started under load) is tests/faults/outage_test.ts.
import assert from "node:assert/strict";
import { createApp } from "@/app.ts";
import { signSession } from "@/core/auth/token.ts";
import { Kysely } from "kysely";
import { PostgresJSDialect } from "kysely-postgres-js";
import postgres from "postgres";
import { openDb } from "@/db/client.ts";
import type { Database } from "@/db/schema.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

const PAGES = [
  "/sessions",
  "/users",
  `/users/${crypto.randomUUID()}`,
  `/replays/${crypto.randomUUID()}`,
  "/settings/profile",
  "/settings/organization",
  "/settings/organization/members",
  "/settings/organization/projects",
];
const FORMS: Array<[string, Record<string, string>]> = [
  [`/users/${crypto.randomUUID()}`, { intent: "set-display-name", displayName: "A" }],
  ["/settings/profile", { intent: "set-name", name: "A" }],
  ["/organizations/switch", { organizationId: crypto.randomUUID() }],
];

Deno.test("pages: with the database unreachable every page and form post answers a 503 page", async () => {
  await using t = await createPagesApp();
  const token = await signSession(t.deps.authSecret, { userId: crypto.randomUUID(), version: 0 });
  const cookie = `playhead_session=${token}`;
  const requests = [
    ...PAGES.map((path) => ({ path, form: undefined })),
    ...FORMS.map(([path, form]) => ({ path, form })),
  ];
  for (const { path, form } of requests) {
    // Nothing listens on port 1: every connection attempt is refused at once. A fresh pool per
    // request, so the driver's reconnect backoff from the one before does not delay it.
    const unreachable = await openDb({ kind: "postgres", url: "postgres://nobody@127.0.0.1:1/x" });
    const app = createApp({ ...t.deps, db: unreachable }, { pages: t.pages });
    const what = `${form ? "POST" : "GET"} ${path}`;
    try {
      const res = await page({ ...t, app }, path, { cookie, form });
      assert.equal(res.status, 503, what);
      assert.equal(res.headers.get("retry-after"), "5", what);
      assert.equal(res.headers.get("cache-control"), "no-store", what);
      assert.match(res.headers.get("content-type") ?? "", /^text\/html/, what);
      const html = await res.text();
      assert.match(html, /<h1>Temporarily unavailable<\/h1>/, what);
      assert.doesNotMatch(html, /ECONNREFUSED|127\.0\.0\.1/, what); // nothing of the error shows
    } finally {
      await unreachable.close();
    }
  }
  const warnings = t.logs.filter((l) => l.tag === "db:unavailable");
  assert.equal(warnings.length, requests.length);
  assert.ok(warnings.every((l) => l.level === "warning"));
  assert.deepEqual(t.errors, [], "reported as 500s");
});

Deno.test("pages: a database that never answers gets the 503 page at the dashboard budget", async () => {
  await using t = await createPagesApp({ DASHBOARD_DATABASE_BUDGET_MS: "300" });
  // Accepts connections and says nothing: only the budget ends the wait.
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  const accepting = (async () => {
    for await (const conn of silent) held.push(conn);
  })();
  const client = postgres(`postgres://nobody@127.0.0.1:${silent.addr.port}/x`, { max: 1 });
  const kysely = new Kysely<Database>({ dialect: new PostgresJSDialect({ postgres: client }) });
  const db = {
    ...t.deps.db,
    kind: "postgres" as const,
    kysely,
    close: () => client.end({ timeout: 0 }),
  };
  const app = createApp({ ...t.deps, db }, { pages: t.pages });
  const token = await signSession(t.deps.authSecret, { userId: crypto.randomUUID(), version: 0 });
  try {
    const res = await page({ ...t, app }, "/sessions", { cookie: `playhead_session=${token}` });
    assert.equal(res.status, 503);
    assert.equal(res.headers.get("retry-after"), "5");
    assert.match(await res.text(), /<h1>Temporarily unavailable<\/h1>/);
    const warning = t.logs.find((l) => l.tag === "db:unavailable");
    assert.match(String(warning?.props.error), /no answer from the database within 300 ms/);
  } finally {
    silent.close();
    await accepting.catch(() => {});
    for (const conn of held) conn.close();
    await db.close();
  }
});

Deno.test("pages: any other error is still a 500 page, no-store, reported", async () => {
  await using t = await createPagesApp();
  const broken = {
    ...t.deps,
    db: { ...t.deps.db, kysely: undefined as unknown as typeof t.deps.db.kysely },
  };
  const app = createApp(broken, { pages: t.pages });
  const token = await signSession(t.deps.authSecret, { userId: crypto.randomUUID(), version: 0 });
  const res = await page({ ...t, app }, "/sessions", { cookie: `playhead_session=${token}` });
  assert.equal(res.status, 500);
  assert.equal(res.headers.get("cache-control"), "no-store");
  assert.equal(res.headers.get("retry-after"), null);
  assert.match(await res.text(), /<h1>Something went wrong<\/h1>/);
  assert.equal(t.errors.length, 1);
});
