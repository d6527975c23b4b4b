// Alert rules for the dashboard (docs/decisions.md "Alerts"): ADMIN+ creates, changes, deletes
// them and rotates a webhook's secret (each with an audit row in its transaction); every member
// lists them with their last firing and reads their deliveries.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { notFound, validation } from "@/core/errors.ts";
import { newRowId } from "@/core/ids.ts";
import { activeOrganization, activeOrganizationToChange } from "@/core/org_access.ts";
import { recordAudit } from "@/core/audit/record.ts";
import { checkTarget } from "@/core/outbound/guarded_post.ts";
import {
  alertRuleById,
  type AlertRuleRow,
  alertRulesOf,
  deleteAlertRule,
  deliveriesOf,
  insertAlertRule,
  type LastFiring,
  projectOfOrganization,
  savedSearchQuery,
  updateAlertRule,
} from "@/db/queries/alerts/rules.ts";
import {
  type AlertDeliveryOut,
  type AlertRuleOut,
  type AlertSignal,
  type CreateAlertRuleInput,
  GROUPS_OF,
  type UpdateAlertRuleInput,
} from "./schema.ts";
import { newWebhookSecret, sealSecret } from "./secret.ts";

type Deps = Pick<AppDeps, "db" | "config" | "authSecret">;
type Deliver = CreateAlertRuleInput["deliver"];

export function ruleOut(row: AlertRuleRow, last: LastFiring | null): AlertRuleOut {
  return {
    id: row.id,
    projectId: row.project_id,
    name: row.name,
    signal: row.signal as AlertSignal,
    groupBy: row.group_by as AlertRuleOut["groupBy"],
    group: row.group_key,
    savedSearchId: row.saved_search_id,
    threshold: row.threshold,
    windowMinutes: row.window_minutes,
    cooldownMinutes: row.cooldown_minutes,
    deliver: row.deliver as Deliver,
    hasSecret: row.secret_sealed !== null,
    lastFiring: last
      ? { group: last.group_key, count: last.count, firedAt: last.fired_at.toISOString() }
      : null,
    createdAt: row.created_at.toISOString(),
  };
}

/** 400 naming the field unless every target may be reached; at least one target. */
async function checkDeliver(deps: Deps, deliver: Deliver): Promise<void> {
  if (!deliver.webhook && !deliver.slack && !deliver.email) {
    throw validation("deliver needs a webhook, slack or email", [{
      path: "deliver",
      message: "give at least one of webhook, slack, email",
    }]);
  }
  for (const field of ["webhook", "slack"] as const) {
    const address = deliver[field];
    if (address === undefined) continue;
    const target = await checkTarget(address, deps.config.alertAllowPrivateTargets);
    if (!target.ok) {
      throw validation(`deliver.${field} is refused: ${target.detail}`, [{
        path: `deliver.${field}`,
        message: target.detail,
      }]);
    }
  }
}

async function checkSignal(deps: Deps, organizationId: string, input: CreateAlertRuleInput) {
  if (input.signal === "saved_search") {
    const query = input.savedSearchId === undefined
      ? undefined
      : await savedSearchQuery(deps.db.kysely, organizationId, input.savedSearchId);
    if (query === undefined) {
      throw validation("savedSearchId names no saved search of the organization", [{
        path: "savedSearchId",
        message: "a saved search of the organization is required for signal saved_search",
      }]);
    }
  } else if (input.savedSearchId !== undefined) {
    throw validation("savedSearchId is only for signal saved_search", [{
      path: "savedSearchId",
      message: "only for signal saved_search",
    }]);
  }
  if (input.groupBy !== null && !GROUPS_OF[input.signal].includes(input.groupBy)) {
    const groups = [...GROUPS_OF[input.signal], "null"].join(", ");
    throw validation(`groupBy ${input.groupBy} does not apply to ${input.signal}`, [{
      path: "groupBy",
      message: `one of ${groups}`,
    }]);
  }
  if (input.group !== null && input.groupBy === null) {
    throw validation("group needs a groupBy", [{ path: "group", message: "needs a groupBy" }]);
  }
}

export async function createAlertRule(
  deps: Deps,
  viewer: Viewer,
  input: CreateAlertRuleInput,
): Promise<AlertRuleOut & { secret: string | null }> {
  const db = deps.db.kysely;
  const visible = (orgId: string) => projectOfOrganization(db, orgId, input.projectId);
  const organizationId = await activeOrganizationToChange(viewer, "ADMIN", visible, "project");
  if (!await visible(organizationId)) throw notFound("project");
  await checkSignal(deps, organizationId, input);
  await checkDeliver(deps, input.deliver);
  const id = newRowId();
  const secret = input.deliver.webhook ? newWebhookSecret() : null;
  await db.transaction().execute(async (tx) => {
    await insertAlertRule(tx, {
      id,
      organization_id: organizationId,
      project_id: input.projectId,
      name: input.name,
      signal: input.signal,
      group_by: input.groupBy,
      group_key: input.group,
      saved_search_id: input.savedSearchId ?? null,
      threshold: input.threshold,
      window_minutes: input.windowMinutes,
      cooldown_minutes: input.cooldownMinutes,
      deliver: JSON.stringify(input.deliver),
      secret_sealed: secret ? await sealSecret(deps.authSecret, secret) : null,
      created_by_id: viewer.userId,
    });
    const { deliver: _, ...details } = input;
    await recordAudit(tx, viewer, {
      organizationId,
      action: "alert_rule.create",
      targetId: id,
      details,
    });
  });
  const row = await alertRuleById(db, organizationId, id);
  return { ...ruleOut(row!, null), secret };
}

async function ruleToChange(deps: Deps, viewer: Viewer, id: string) {
  const db = deps.db.kysely;
  const visible = async (orgId: string) => !!await alertRuleById(db, orgId, id);
  const organizationId = await activeOrganizationToChange(viewer, "ADMIN", visible, "alert rule");
  const row = await alertRuleById(db, organizationId, id);
  if (!row) throw notFound("alert rule");
  return { organizationId, row };
}

export async function changeAlertRule(
  deps: Deps,
  viewer: Viewer,
  id: string,
  input: UpdateAlertRuleInput,
): Promise<AlertRuleOut & { secret: string | null }> {
  const { organizationId, row } = await ruleToChange(deps, viewer, id);
  if (input.deliver) await checkDeliver(deps, input.deliver);
  const db = deps.db.kysely;
  // A webhook added where there was none gets a secret, shown in this answer.
  const secret = input.deliver?.webhook && !row.secret_sealed ? newWebhookSecret() : null;
  await db.transaction().execute(async (tx) => {
    await updateAlertRule(tx, organizationId, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.threshold !== undefined ? { threshold: input.threshold } : {}),
      ...(input.windowMinutes !== undefined ? { window_minutes: input.windowMinutes } : {}),
      ...(input.cooldownMinutes !== undefined ? { cooldown_minutes: input.cooldownMinutes } : {}),
      ...(input.deliver ? { deliver: JSON.stringify(input.deliver) } : {}),
      ...(input.deliver && !input.deliver.webhook ? { secret_sealed: null } : {}),
      ...(secret ? { secret_sealed: await sealSecret(deps.authSecret, secret) } : {}),
      updated_at: new Date(),
    });
    const { deliver: _, ...details } = input;
    await recordAudit(tx, viewer, {
      organizationId,
      action: "alert_rule.update",
      targetId: id,
      details,
    });
  });
  const rows = await alertRulesOf(db, organizationId, row.project_id);
  const changed = rows.find((r) => r.id === id)!;
  return { ...ruleOut(changed, changed.last), secret };
}

export async function removeAlertRule(deps: Deps, viewer: Viewer, id: string): Promise<void> {
  const { organizationId } = await ruleToChange(deps, viewer, id);
  await deps.db.kysely.transaction().execute(async (tx) => {
    if (!await deleteAlertRule(tx, organizationId, id)) throw notFound("alert rule");
    await recordAudit(tx, viewer, { organizationId, action: "alert_rule.delete", targetId: id });
  });
}

/** A new signing secret for the rule's webhook; the old one stops signing at once. */
export async function rotateAlertSecret(
  deps: Deps,
  viewer: Viewer,
  id: string,
): Promise<{ secret: string }> {
  const { organizationId, row } = await ruleToChange(deps, viewer, id);
  if (!(row.deliver as Deliver).webhook) {
    throw validation("the rule has no webhook", [{ path: "deliver.webhook", message: "none" }]);
  }
  const secret = newWebhookSecret();
  await deps.db.kysely.transaction().execute(async (tx) => {
    await updateAlertRule(tx, organizationId, id, {
      secret_sealed: await sealSecret(deps.authSecret, secret),
      updated_at: new Date(),
    });
    await recordAudit(tx, viewer, {
      organizationId,
      action: "alert_rule.secret_rotate",
      targetId: id,
    });
  });
  return { secret };
}

export async function listAlertRules(
  deps: Deps,
  viewer: Viewer,
  projectId: string | null,
): Promise<{ rules: AlertRuleOut[] }> {
  const organizationId = activeOrganization(viewer);
  const rows = await alertRulesOf(deps.db.kysely, organizationId, projectId);
  return { rules: rows.map((row) => ruleOut(row, row.last)) };
}

export async function ruleDeliveries(
  deps: Deps,
  viewer: Viewer,
  id: string,
): Promise<{ deliveries: AlertDeliveryOut[] }> {
  const organizationId = activeOrganization(viewer);
  if (!await alertRuleById(deps.db.kysely, organizationId, id)) throw notFound("alert rule");
  const rows = await deliveriesOf(deps.db.kysely, id);
  return {
    deliveries: rows.map((r) => ({
      id: r.id,
      channel: r.channel,
      status: r.status,
      attempts: r.attempts,
      nextAttemptAt: r.next_attempt_at.toISOString(),
      lastStatus: r.last_status,
      lastError: r.last_error,
      createdAt: r.created_at.toISOString(),
    })),
  };
}

export { ruleToChange };
