// Alerts on two instances of one PostgreSQL database (docs/decisions.md "Alerts"): both run the
// minute at once; the rule is evaluated by one of them and its webhook delivered once.
import assert from "node:assert/strict";
import { sql } from "kysely";
import { createDeps } from "@/core/deps.ts";
import { loadConfig } from "@/config.ts";
import { openDb } from "@/db/client.ts";
import { runAlerts } from "@/core/alerts/schedule.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { call, signedInUser } from "@/tests/helpers/auth.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { postgresUrl } from "@/tests/helpers/postgres_url.ts";
import { sessionWithSignal, startReceiver } from "./alerts_world.ts";

const MIN = 60_000;
const ENV = { ALERT_ALLOW_PRIVATE_TARGETS: "true" };

Deno.test("alerts: two instances evaluating the same minute deliver once", async () => {
  await using receiver = startReceiver();
  await using t = await createTestApp(ENV);
  const { rows: [{ name }] } = await sql<{ name: string }>`SELECT current_database() AS name`
    .execute(t.db.kysely);
  const url = new URL(postgresUrl());
  url.pathname = `/${name}`;
  const otherDb = await openDb({ kind: "postgres", url: url.toString(), max: 4 });
  try {
    // Same AUTH_SECRET on both, as instances of one deployment have.
    const other = { ...createDeps(loadConfig({ NODE_ENV: "test", ...ENV }), otherDb) };
    other.authSecret = t.deps.authSecret;
    const { organizationId, cookie } = await signedInUser(t, { role: "OWNER" });
    const project = await insertProject(t.db.kysely, { organizationId });
    const created = await call(t.app, "POST", "/api/alert-rules", {
      cookie,
      body: {
        projectId: project.id,
        name: "Checkout rage",
        signal: "rage_click",
        groupBy: "page",
        threshold: 5,
        windowMinutes: 10,
        cooldownMinutes: 0,
        deliver: { webhook: `${receiver.url}/hook` },
      },
    });
    assert.equal(created.status, 201);
    const t0 = Math.floor(Date.now() / MIN) * MIN;
    for (let i = 0; i < 6; i++) {
      await sessionWithSignal(t.db.kysely, project, {
        page: "/checkout",
        kind: "rage_click",
        at: t0 - MIN + i,
        startedAt: t0 - 5 * MIN,
      });
    }
    for (let minute = 1; minute <= 3; minute++) {
      const now = new Date(t0 + minute * MIN);
      const runs = await Promise.all([runAlerts(t.deps, now), runAlerts(other, now)]);
      assert.equal(runs[0].rules + runs[1].rules, 1, "the rule evaluated twice in a minute");
      assert.equal(receiver.of("/hook").length, minute, `minute ${minute}`);
    }
    const ids = receiver.of("/hook").map((r) => r.headers.get("x-playhead-delivery"));
    assert.equal(new Set(ids).size, 3);
  } finally {
    otherDb.close();
  }
});
