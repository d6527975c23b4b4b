// A rule watching one group (docs/decisions.md "Alerts": what "Alert me" on an insights row
// makes): it needs a groupBy (a 400 naming `group` without one, or past 512 characters), counts
// that group only, and fires for it alone while another group is over the threshold.
import assert from "node:assert/strict";
import { runAlerts } from "@/core/alerts/schedule.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { sessionWithSignal, startReceiver } from "./alerts_world.ts";

const MIN = 60_000;

Deno.test("alert rules: a rule on one group counts and fires for that group only", async () => {
  await using receiver = startReceiver();
  await using t = await createTestApp({ ALERT_ALLOW_PRIVATE_TARGETS: "true" });
  const db = t.db.kysely;
  const { organizationId, cookie } = await signedInUser(t, { role: "ADMIN" });
  const project = await insertProject(db, { organizationId });
  const rule = {
    projectId: project.id,
    name: "Checkout rage",
    signal: "rage_click",
    groupBy: "page",
    group: "/checkout",
    threshold: 3,
    windowMinutes: 10,
    cooldownMinutes: 0,
    deliver: { webhook: `${receiver.url}/hook` },
  };
  const create = (body: unknown) => call(t.app, "POST", "/api/alert-rules", { cookie, body });
  const refused = async (body: unknown) => {
    const res = await create(body);
    assert.equal(res.status, 400);
    return (await res.json()).issues?.[0]?.path;
  };
  assert.equal(await refused({ ...rule, groupBy: null }), "group");
  assert.equal(await refused({ ...rule, group: "/".repeat(513) }), "group");
  assert.equal((await create({ ...rule, group: "/".repeat(512), name: "Longest" })).status, 201);
  await db.deleteFrom("alert_rules").execute();
  const created = await create(rule);
  assert.equal(created.status, 201);
  assert.equal((await created.json()).group, "/checkout");
  const listed = await (await call(t.app, "GET", "/api/alert-rules", { cookie })).json();
  assert.equal(listed.rules[0].group, "/checkout");

  const t0 = Math.floor(Date.now() / MIN) * MIN;
  const signal = (page: string, i: number) =>
    sessionWithSignal(db, project, {
      page,
      kind: "rage_click",
      at: t0 - 2 * MIN + i * 1000,
      startedAt: t0 - 3 * MIN,
    });
  for (let i = 0; i < 4; i++) await signal("/cart", i);
  for (let i = 0; i < 2; i++) await signal("/checkout", i);
  assert.equal((await runAlerts(t.deps, new Date(t0))).firings, 0, "another group fired it");
  await signal("/checkout", 2);
  assert.equal((await runAlerts(t.deps, new Date(t0 + MIN))).firings, 1);
  const hooks = receiver.of("/hook").map((r) => JSON.parse(r.body));
  assert.deepEqual(hooks.map((h) => [h.group, h.count]), [["/checkout", 3]]);
});
