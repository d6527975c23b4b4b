// Alerts end to end (docs/decisions.md "Alerts"): a rage_click-by-page rule with threshold 5 over
// 10 minutes stays silent at four sessions, fires once at five with a signed webhook whose links
// open the replays at the rage click, a Slack body and an email; sessions inside the cooldown send
// nothing; a receiver answering 500 gets the same delivery at the next attempt and nothing after
// its 2xx; a 404 is not tried again.
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { runAlerts } from "@/core/alerts/schedule.ts";
import { runDeliveries } from "@/core/alerts/deliver.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { startTestSmtp } from "@/tests/helpers/smtp.ts";
import { sessionWithSignal, startReceiver } from "./alerts_world.ts";

const MIN = 60_000;

Deno.test("alerts: fire once at the threshold, signed, with replay links; cooldown; retries", async () => {
  await using smtp = await startTestSmtp();
  await using receiver = startReceiver();
  await using t = await createTestApp({ ALERT_ALLOW_PRIVATE_TARGETS: "true", ...smtp.env });
  const db = t.db.kysely;
  const { organizationId, cookie } = await signedInUser(t, { role: "ADMIN" });
  const project = await insertProject(db, { organizationId });
  const created = await call(t.app, "POST", "/api/alert-rules", {
    cookie,
    body: {
      projectId: project.id,
      name: "Checkout rage",
      signal: "rage_click",
      groupBy: "page",
      threshold: 5,
      windowMinutes: 10,
      cooldownMinutes: 5,
      deliver: {
        webhook: `${receiver.url}/hook`,
        slack: `${receiver.url}/slack`,
        email: ["oncall@team.test"],
      },
    },
  });
  assert.equal(created.status, 201);
  const rule = await created.json();
  assert.match(rule.secret, /^whsec_/);

  const t0 = Math.floor(Date.now() / MIN) * MIN;
  const sessions: { id: string; offset: number }[] = [];
  const add = async (i: number) => {
    const startedAt = t0 - 8 * MIN + i * 1000;
    const at = t0 - 2 * MIN + i * 1000;
    const session = await sessionWithSignal(db, project, {
      page: "/checkout",
      kind: "rage_click",
      at,
      startedAt,
    });
    sessions.push({ id: session.id, offset: at - startedAt });
  };
  // A rage click on another page and an old one outside the window count for nothing.
  await sessionWithSignal(db, project, { page: "/", kind: "rage_click", at: t0, startedAt: t0 });
  await sessionWithSignal(db, project, {
    page: "/checkout",
    kind: "rage_click",
    at: t0 - 11 * MIN,
    startedAt: t0 - 12 * MIN,
  });
  for (let i = 0; i < 4; i++) await add(i);
  assert.deepEqual(await runAlerts(t.deps, new Date(t0)), {
    rules: 1,
    firings: 0,
    sent: 0,
    retried: 0,
    failed: 0,
  });
  assert.equal(receiver.received.length, 0, "four sessions fired");

  await add(4);
  const fired = await runAlerts(t.deps, new Date(t0 + MIN));
  assert.deepEqual({ ...fired }, { rules: 1, firings: 1, sent: 3, retried: 0, failed: 0 });
  const [hook] = receiver.of("/hook");
  assert.equal(receiver.of("/hook").length, 1);
  const timestamp = hook.headers.get("x-playhead-timestamp")!;
  const expected = createHmac("sha256", rule.secret).update(`${timestamp}.${hook.body}`)
    .digest("hex");
  assert.equal(hook.headers.get("x-playhead-signature"), `sha256=${expected}`);
  const payload = JSON.parse(hook.body);
  assert.equal(hook.headers.get("x-playhead-delivery"), payload.id);
  assert.equal(payload.group, "/checkout");
  assert.equal(payload.count, 5);
  assert.deepEqual(payload.rule, { id: rule.id, name: "Checkout rage" });
  assert.equal(payload.sessions.length, 3);
  for (const link of payload.sessions) {
    const seeded = sessions.find((s) => s.id === link.id)!;
    assert.equal(link.url, `${t.deps.config.appUrl}/replays/${link.id}?t=${seeded.offset}`);
  }
  assert.deepEqual(Object.keys(payload).sort(), [
    "count",
    "dashboardUrl",
    "group",
    "id",
    "projectId",
    "rule",
    "sessions",
    "signal",
    "windowEnd",
    "windowStart",
  ]);
  const slack = JSON.parse(receiver.of("/slack")[0].body);
  assert.match(slack.text, /Checkout rage: 5 sessions with a rage click on \/checkout/);
  assert.equal(slack.blocks[0].type, "section");
  assert.ok(JSON.stringify(slack.blocks).includes(payload.sessions[0].url));
  const mail = await smtp.next();
  assert.deepEqual(mail.to, ["oncall@team.test"]);
  assert.match(mail.raw, /Checkout rage: 5 sessions/);

  // The sixth and seventh inside the cooldown (5 minutes from the firing) send nothing.
  await add(5);
  await add(6);
  await runAlerts(t.deps, new Date(t0 + 2 * MIN));
  await runAlerts(t.deps, new Date(t0 + 6 * MIN));
  assert.equal(receiver.of("/hook").length, 1, "sent inside the cooldown");
  // Past it, while the signals are still in the window, it fires again.
  await runAlerts(t.deps, new Date(t0 + 7 * MIN));
  assert.equal(receiver.of("/hook").length, 2);
  assert.equal(JSON.parse(receiver.of("/hook")[1].body).count, 7);

  // A receiver answering 500: the same delivery at the next attempt, then nothing after a 2xx.
  receiver.answer(500);
  const before = receiver.of("/hook").length;
  const test = await call(t.app, "POST", `/api/alert-rules/${rule.id}/test`, { cookie });
  assert.equal(test.status, 200);
  const first = receiver.of("/hook").slice(before);
  assert.equal(first.length, 1);
  const id = first[0].headers.get("x-playhead-delivery");
  const now = Date.now();
  receiver.answer(200);
  await runDeliveries(t.deps, new Date(now + MIN - 1000));
  assert.equal(receiver.of("/hook").length, before + 1, "retried before its backoff");
  await runDeliveries(t.deps, new Date(now + MIN + 1000));
  const again = receiver.of("/hook").slice(before + 1);
  assert.equal(again.length, 1);
  assert.equal(again[0].headers.get("x-playhead-delivery"), id);
  await runDeliveries(t.deps, new Date(now + 25 * 3_600_000));
  assert.equal(receiver.of("/hook").length, before + 2, "sent again after a 2xx");
  const listed = await call(t.app, "GET", `/api/alert-rules/${rule.id}/deliveries`, { cookie });
  const { deliveries } = await listed.json();
  const retried = deliveries.find((d: { id: string }) => d.id === id);
  assert.equal(retried.status, "sent");
  assert.equal(retried.attempts, 2);

  // A 404 fails at once, never tried again.
  receiver.answer(404);
  await call(t.app, "POST", `/api/alert-rules/${rule.id}/test`, { cookie });
  const failedCount = receiver.of("/hook").length;
  await runDeliveries(t.deps, new Date(now + 2 * 3_600_000));
  assert.equal(receiver.of("/hook").length, failedCount);
  const after = await (await call(t.app, "GET", `/api/alert-rules/${rule.id}/deliveries`, {
    cookie,
  })).json();
  assert.ok(
    after.deliveries.some((d: { status: string; lastStatus: number }) =>
      d.status === "failed" && d.lastStatus === 404
    ),
  );

  const list = await (await call(t.app, "GET", "/api/alert-rules", { cookie })).json();
  assert.equal(list.rules[0].lastFiring.count, 7);
  assert.equal(list.rules[0].lastFiring.group, "/checkout");
});
