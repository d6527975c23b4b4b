// A rule's saved search (migration 0039's foreign key, docs/decisions.md "Alerts"): deleting the
// saved search while a rule counts it is refused with 409 naming the rule, and changes nothing;
// once the rule is gone it deletes; deleting the organization still takes both.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";

Deno.test("alert rules: a saved search a rule counts is not deleted under it", async () => {
  await using t = await createTestApp({ ALERT_ALLOW_PRIVATE_TARGETS: "true" });
  const db = t.db.kysely;
  const { organizationId, cookie } = await signedInUser(t, { role: "ADMIN" });
  const project = await insertProject(db, { organizationId });
  const saved = await call(t.app, "POST", "/api/saved-searches", {
    cookie,
    body: { name: "Checkout", query: "visited=%2Fcheckout" },
  });
  assert.equal(saved.status, 201);
  const search = await saved.json();
  const created = await call(t.app, "POST", "/api/alert-rules", {
    cookie,
    body: {
      projectId: project.id,
      name: "Checkout visits",
      signal: "saved_search",
      groupBy: null,
      savedSearchId: search.id,
      threshold: 3,
      windowMinutes: 10,
      cooldownMinutes: 0,
      deliver: { webhook: "http://127.0.0.1:9/hook" },
    },
  });
  assert.equal(created.status, 201);
  const rule = await created.json();

  const refused = await call(t.app, "DELETE", `/api/saved-searches/${search.id}`, { cookie });
  assert.equal(refused.status, 409);
  assert.match(JSON.stringify(await refused.json()), /Checkout visits/);
  const searches = async () =>
    (await db.selectFrom("saved_searches").select("id").execute()).length;
  assert.equal(await searches(), 1);

  assert.equal(
    (await call(t.app, "DELETE", `/api/alert-rules/${rule.id}`, { cookie })).status,
    204,
  );
  assert.equal(
    (await call(t.app, "DELETE", `/api/saved-searches/${search.id}`, { cookie })).status,
    204,
  );
  assert.equal(await searches(), 0);
});

Deno.test("alert rules: deleting the organization takes its rules and their saved searches", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const project = await insertProject(db);
  await db.insertInto("saved_searches").values({
    id: "search-1",
    organization_id: project.organization_id,
    name: "All",
    query: "",
    author_id: null,
  }).execute();
  await db.insertInto("alert_rules").values({
    id: "rule-1",
    organization_id: project.organization_id,
    project_id: project.id,
    name: "All",
    signal: "saved_search",
    group_by: null,
    saved_search_id: "search-1",
    threshold: 1,
    window_minutes: 5,
    cooldown_minutes: 0,
    deliver: "{}",
    secret_sealed: null,
    created_by_id: null,
  }).execute();
  await db.deleteFrom("organizations").where("id", "=", project.organization_id).execute();
  assert.equal((await db.selectFrom("alert_rules").select("id").execute()).length, 0);
  assert.equal((await db.selectFrom("saved_searches").select("id").execute()).length, 0);
});
