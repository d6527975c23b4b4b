// POST /api/alert-rules/:id/test (docs/decisions.md "Alerts"): a sample delivery on each of the
// rule's channels, through the outbox like a firing's (signed, retried), sent at once: only its
// own rows, never another rule's due deliveries.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { insertDeliveries } from "@/db/queries/alerts/outbox.ts";
import { alertsPageUrl, outboxRows } from "./evaluate.ts";
import { runDeliveries } from "./deliver.ts";
import { ruleToChange } from "./rules.ts";
import type { AlertSignal, CreateAlertRuleInput } from "./schema.ts";

type Deps = Pick<AppDeps, "db" | "config" | "authSecret" | "mailer">;

export async function sendTestDelivery(
  deps: Deps,
  viewer: Viewer,
  id: string,
  now = new Date(),
): Promise<{ deliveries: number }> {
  const { row } = await ruleToChange(deps, viewer, id);
  const rows = outboxRows(row.id, row.deliver as CreateAlertRuleInput["deliver"], {
    rule: { id: row.id, name: row.name },
    projectId: row.project_id,
    signal: row.signal as AlertSignal,
    group: row.group_by ? "(test)" : null,
    count: row.threshold,
    windowStart: new Date(now.getTime() - row.window_minutes * 60_000).toISOString(),
    windowEnd: now.toISOString(),
    sessions: [],
    dashboardUrl: alertsPageUrl(deps.config.appUrl, row.project_id),
    test: true,
  }, now);
  await insertDeliveries(deps.db.kysely, rows);
  // only this test's rows: the other rules' due deliveries wait for the minute job
  await runDeliveries(deps, now, rows.map((r) => r.id));
  return { deliveries: rows.length };
}
