// Alert evaluation (docs/decisions.md "Alerts"): each rule claimed for the current minute (one
// instance wins it) counts its groups' distinct sessions in the window; a group at or past the
// threshold and out of cooldown fires: the firing and its outbox rows commit together, so a crash
// before sending loses nothing (core/alerts/deliver.ts sends them).
import type { AppDeps } from "@/core/deps.ts";
import { log } from "@/log.ts";
import type { AlertDeliveryTable } from "@/db/schema.ts";
import type { Insertable } from "kysely";
import { newRowId } from "@/core/ids.ts";
import { type AlertRuleRow, savedSearchQuery } from "@/db/queries/alerts/rules.ts";
import type { Kysely } from "kysely";
import type { Database } from "@/db/schema.ts";
import { countMatching } from "@/core/saved_searches/count.ts";
import {
  claimRules,
  type GroupCount,
  groupsInCooldown,
  groupsOverThreshold,
  insertFiring,
  lockRule,
} from "@/db/queries/alerts/evaluate.ts";
import type { AlertPayload, AlertSignal, CreateAlertRuleInput } from "./schema.ts";

type Deps = Pick<AppDeps, "db" | "config">;
const MINUTE_MS = 60_000;
/** Rules claimed per statement; rounds bounded so one run ends. */
const CLAIM_BATCH = 50;
const MAX_ROUNDS = 200;

export const replayLink = (appUrl: string, sessionId: string, offsetMs: number) =>
  `${appUrl}/replays/${encodeURIComponent(sessionId)}?t=${Math.max(0, Math.round(offsetMs))}`;

export const alertsPageUrl = (appUrl: string, projectId: string) =>
  `${appUrl}/projects/${encodeURIComponent(projectId)}/alerts`;

/** One outbox row per channel the rule delivers to, each carrying the payload with its own id. */
export function outboxRows(
  ruleId: string,
  deliver: CreateAlertRuleInput["deliver"],
  payload: Omit<AlertPayload, "id">,
  now: Date,
): Insertable<AlertDeliveryTable>[] {
  const channels = (["webhook", "slack", "email"] as const).filter((c) => deliver[c]);
  return channels.map((channel) => {
    const id = crypto.randomUUID();
    return {
      id,
      rule_id: ruleId,
      channel,
      payload: JSON.stringify({ id, ...payload }),
      next_attempt_at: now,
      last_status: null,
      last_error: null,
      created_at: now,
      updated_at: now,
    };
  });
}

/**
 * A saved search's sessions that started in the window, counted by the sessions list's own filter
 * (core/saved_searches/count.ts); one group, no session links (the count reads no ids).
 */
async function savedSearchOverThreshold(
  db: Kysely<Database>,
  rule: AlertRuleRow,
  start: Date,
  now: Date,
): Promise<GroupCount[]> {
  if (!rule.saved_search_id) return [];
  const query = await savedSearchQuery(db, rule.organization_id, rule.saved_search_id);
  if (query === undefined) return [];
  const count = await countMatching(
    db,
    {
      organizationId: rule.organization_id,
      query,
    },
    start,
    now,
    rule.threshold,
  );
  return count >= rule.threshold ? [{ group_key: "", count, sessions: [] }] : [];
}

async function evaluateRule(deps: Deps, rule: AlertRuleRow, now: Date): Promise<number> {
  // The window is the rule's whole minutes before the evaluated one (the rollup's minutes).
  const toMinute = Math.floor(now.getTime() / MINUTE_MS);
  const fromMinute = toMinute - rule.window_minutes;
  const start = new Date(fromMinute * MINUTE_MS);
  const end = new Date(toMinute * MINUTE_MS);
  const cooldownStart = new Date(now.getTime() - rule.cooldown_minutes * MINUTE_MS);
  return await deps.db.kysely.transaction().execute(async (tx) => {
    if (!await lockRule(tx, rule.id)) return 0;
    const groups = rule.signal === "saved_search"
      ? await savedSearchOverThreshold(tx, rule, start, end)
      : await groupsOverThreshold(tx, rule, fromMinute, toMinute);
    if (!groups.length) return 0;
    const cooling = rule.cooldown_minutes > 0
      ? await groupsInCooldown(tx, rule.id, cooldownStart)
      : new Set<string>();
    let fired = 0;
    for (const group of groups) {
      if (cooling.has(group.group_key)) continue;
      const payload = {
        rule: { id: rule.id, name: rule.name },
        projectId: rule.project_id,
        signal: rule.signal as AlertSignal,
        group: rule.group_by ? group.group_key : null,
        count: group.count,
        windowStart: start.toISOString(),
        windowEnd: end.toISOString(),
        sessions: group.sessions.map((s) => ({
          id: s.id,
          url: replayLink(deps.config.appUrl, s.id, s.offset),
        })),
        dashboardUrl: alertsPageUrl(deps.config.appUrl, rule.project_id),
      };
      const deliver = rule.deliver as CreateAlertRuleInput["deliver"];
      await insertFiring(tx, {
        id: newRowId(),
        rule_id: rule.id,
        group_key: group.group_key,
        count: group.count,
        fired_at: now,
      }, outboxRows(rule.id, deliver, payload, now));
      fired++;
    }
    return fired;
  });
}

/** Evaluates every rule not yet evaluated this minute; counts what it did. */
export async function evaluateAlerts(
  deps: Deps,
  now = new Date(),
): Promise<{ rules: number; firings: number }> {
  const minute = Math.floor(now.getTime() / MINUTE_MS);
  let rules = 0;
  let firings = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const claimed = await claimRules(deps.db.kysely, minute, CLAIM_BATCH);
    if (!claimed.length) break;
    for (const rule of claimed) {
      rules++;
      try {
        firings += await evaluateRule(deps, rule, now);
      } catch (error) {
        log.error("alerts:evaluate:failed", {
          ruleId: rule.id,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
  }
  return { rules, firings };
}
