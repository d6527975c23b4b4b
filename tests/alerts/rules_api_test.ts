// /api/alert-rules without ALERT_ALLOW_PRIVATE_TARGETS (docs/decisions.md "Alerts"): ADMIN+
// creates, a VIEWER gets 403 and reads; bounds at and past both ends; groupBy per signal; a webhook
// or Slack address that is http: or private is a 400 naming the field; nothing is stored on a
// refusal; the secret is shown once and rotates; each change writes its audit row.
import assert from "node:assert/strict";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertMembership, insertProject, insertUser } from "@/tests/helpers/factories.ts";
import { cookieFor } from "@/tests/helpers/auth.ts";
import { insertSession } from "@/tests/helpers/sessions_factories.ts";
import { runAlerts } from "@/core/alerts/schedule.ts";

Deno.test("alert rules API: roles, bounds, targets, secret, audit", async () => {
  await using t = await createTestApp();
  const db = t.db.kysely;
  const { organizationId, cookie } = await signedInUser(t, { role: "ADMIN" });
  const project = await insertProject(db, { organizationId });
  const viewer = await insertUser(db);
  await insertMembership(db, organizationId, viewer.id, "VIEWER");
  await db.updateTable("users").set({ active_organization_id: organizationId })
    .where("id", "=", viewer.id).execute();
  const viewerCookie = await cookieFor(t, viewer.id);
  const valid = {
    projectId: project.id,
    name: "Errors",
    signal: "error",
    groupBy: "error_group",
    threshold: 1,
    windowMinutes: 5,
    cooldownMinutes: 0,
    deliver: { email: ["team@acme.test"] },
  };
  const create = (body: unknown, as = cookie) =>
    call(t.app, "POST", "/api/alert-rules", { cookie: as, body });
  const field = async (response: Response) => {
    assert.equal(response.status, 400);
    const body = await response.json();
    return body.issues?.[0]?.path ?? body.error;
  };
  const rules = async () => (await db.selectFrom("alert_rules").select("id").execute()).length;

  assert.equal((await create(valid, viewerCookie)).status, 403);
  assert.equal(await rules(), 0);

  const savedSearch = await db.insertInto("saved_searches").values({
    id: crypto.randomUUID(),
    organization_id: organizationId,
    name: "All",
    query: "",
    author_id: null,
  }).returning("id").executeTakeFirstOrThrow();
  const onSearch = { ...valid, signal: "saved_search", groupBy: null, threshold: 2 };
  assert.equal(await field(await create(onSearch)), "savedSearchId");
  assert.equal(
    await field(await create({ ...valid, savedSearchId: savedSearch.id })),
    "savedSearchId",
  );
  assert.equal(
    await field(await create({ ...onSearch, groupBy: "page", savedSearchId: savedSearch.id })),
    "groupBy",
  );
  // Bounds: at each end accepted, one past refused naming the field.
  for (
    const [name, low, high] of [
      ["threshold", 1, 10_000],
      ["windowMinutes", 5, 1_440],
      ["cooldownMinutes", 0, 10_080],
    ] as const
  ) {
    assert.equal((await create({ ...valid, [name]: low })).status, 201, `${name} ${low}`);
    assert.equal((await create({ ...valid, [name]: high })).status, 201, `${name} ${high}`);
    assert.match(
      String(await field(await create({ ...valid, [name]: low - 1 }))),
      new RegExp(name),
    );
    assert.match(
      String(await field(await create({ ...valid, [name]: high + 1 }))),
      new RegExp(name),
    );
  }
  // A saved search's rule fires at its threshold of sessions started in the window, not below.
  const searchRule = await create({ ...onSearch, savedSearchId: savedSearch.id });
  assert.equal(searchRule.status, 201);
  const searchRuleId = (await searchRule.json()).id;
  await db.deleteFrom("alert_rules").where("id", "!=", searchRuleId).execute();
  const now = Date.now();
  await insertSession(db, project, { createdAt: new Date(now - 60_000) });
  await runAlerts(t.deps, new Date(now));
  await insertSession(db, project, { createdAt: new Date(now - 60_000) });
  await runAlerts(t.deps, new Date(now + 60_000));
  const firings = await db.selectFrom("alert_firings").select("count").execute();
  assert.deepEqual(firings, [{ count: 2 }]);
  await db.deleteFrom("alert_rules").execute();
  const made = await rules();
  assert.match(String(await field(await create({ ...valid, groupBy: "selector" }))), /groupBy/);
  const emails = Array.from({ length: 11 }, (_, i) => `a${i}@acme.test`);
  assert.match(
    String(await field(await create({ ...valid, deliver: { email: emails } }))),
    /email/,
  );
  assert.match(String(await field(await create({ ...valid, deliver: {} }))), /deliver/);
  for (
    const [key, address] of [
      ["webhook", "http://127.0.0.1:9/hook"],
      ["webhook", "https://127.0.0.1/hook"],
      ["slack", "https://169.254.169.254/latest"],
      ["webhook", "https://10.0.0.8/hook"],
      ["slack", "https://[::1]/x"],
      ["webhook", "https://intranet/hook"],
    ]
  ) {
    const path = await field(await create({ ...valid, deliver: { [key]: address } }));
    assert.equal(path, `deliver.${key}`, address);
  }
  assert.equal(await rules(), made, "a refused rule was stored");

  // A webhook on a public address literal: its secret once, sealed at rest, rotated.
  const created = await create({ ...valid, deliver: { webhook: "https://93.184.215.14/hook" } });
  assert.equal(created.status, 201);
  const rule = await created.json();
  assert.match(rule.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
  const stored = await db.selectFrom("alert_rules").select("secret_sealed")
    .where("id", "=", rule.id).executeTakeFirstOrThrow();
  assert.ok(!stored.secret_sealed!.includes(rule.secret.slice(6)));
  const listed = await (await call(t.app, "GET", "/api/alert-rules", { cookie: viewerCookie }))
    .json();
  assert.ok(!JSON.stringify(listed).includes(rule.secret));
  assert.equal(listed.rules.length, made + 1);
  const rotate = `/api/alert-rules/${rule.id}/secret`;
  assert.equal((await call(t.app, "POST", rotate, { cookie: viewerCookie })).status, 403);
  const rotated = await (await call(t.app, "POST", rotate, { cookie })).json();
  assert.notEqual(rotated.secret, rule.secret);

  const patch = (body: unknown, as = cookie) =>
    call(t.app, "PATCH", `/api/alert-rules/${rule.id}`, { cookie: as, body });
  assert.equal((await patch({ threshold: 3 }, viewerCookie)).status, 403);
  assert.equal((await patch({ threshold: 10_001 })).status, 400);
  assert.equal(
    await field(await patch({ deliver: { webhook: "http://127.0.0.1/x" } })),
    "deliver.webhook",
  );
  const changed = await patch({ threshold: 3 });
  assert.equal(changed.status, 200);
  assert.equal((await changed.json()).threshold, 3);
  const remove = (as: string) =>
    call(t.app, "DELETE", `/api/alert-rules/${rule.id}`, { cookie: as });
  assert.equal((await remove(viewerCookie)).status, 403);
  assert.equal((await remove(cookie)).status, 204);
  assert.equal((await remove(cookie)).status, 404);

  const actions = (await db.selectFrom("audit_log").select("action")
    .where("target_id", "=", rule.id).orderBy("created_at").execute()).map((r) => r.action);
  assert.deepEqual(actions.sort(), [
    "alert_rule.create",
    "alert_rule.delete",
    "alert_rule.secret_rotate",
    "alert_rule.update",
  ]);
});
