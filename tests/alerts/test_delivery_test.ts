// POST /api/alert-rules/:id/test (docs/decisions.md "Alerts") sends that rule's sample delivery
// only: another rule's delivery due in the outbox is left for the minute job, untouched.
import assert from "node:assert/strict";
import { runDeliveries } from "@/core/alerts/deliver.ts";
import { outboxRows } from "@/core/alerts/evaluate.ts";
import { insertDeliveries } from "@/db/queries/alerts/outbox.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { startReceiver } from "./alerts_world.ts";

Deno.test("alert rules: a test sends that rule's delivery only, not the outbox's due ones", async () => {
  await using receiver = startReceiver();
  await using t = await createTestApp({ ALERT_ALLOW_PRIVATE_TARGETS: "true" });
  const db = t.db.kysely;
  const { organizationId, cookie } = await signedInUser(t, { role: "ADMIN" });
  const project = await insertProject(db, { organizationId });
  const create = async (name: string, path: string) => {
    const res = await call(t.app, "POST", "/api/alert-rules", {
      cookie,
      body: {
        projectId: project.id,
        name,
        signal: "error",
        groupBy: null,
        threshold: 1,
        windowMinutes: 5,
        cooldownMinutes: 0,
        deliver: { webhook: `${receiver.url}${path}` },
      },
    });
    assert.equal(res.status, 201);
    return (await res.json()).id as string;
  };
  const a = await create("A", "/a");
  const b = await create("B", "/b");
  const now = new Date(Date.now() - 1_000);
  const [due] = outboxRows(a, { webhook: `${receiver.url}/a` }, {
    rule: { id: a, name: "A" },
    projectId: project.id,
    signal: "error",
    group: null,
    count: 1,
    windowStart: now.toISOString(),
    windowEnd: now.toISOString(),
    sessions: [],
    dashboardUrl: "https://playhead.test/",
  }, now);
  await insertDeliveries(db, [due]);

  const test = await call(t.app, "POST", `/api/alert-rules/${b}/test`, { cookie });
  assert.equal(test.status, 200);
  assert.equal(receiver.of("/b").length, 1);
  assert.equal(receiver.of("/a").length, 0, "the test sent another rule's due delivery");
  const pending = await db.selectFrom("alert_deliveries").select(["status", "attempts"])
    .where("id", "=", due.id).executeTakeFirstOrThrow();
  assert.deepEqual(pending, { status: "pending", attempts: 0 });

  // the minute job sends it
  await runDeliveries(t.deps);
  assert.equal(receiver.of("/a").length, 1);
  assert.equal(receiver.of("/b").length, 1);
});
