// GET /api/insights and the /insights page (docs/decisions.md "Insights"): the elements people
// rage- and dead-click, the errors they meet, the pages where it happens and a daily trend, in the
// active organization.
import type { AppDeps } from "../deps.ts";
import type { Viewer } from "../auth/viewer.ts";
import { activeOrganization } from "../org_access.ts";
import { startOfUtcDay } from "../sessions/list.ts";
import {
  dailyCounts,
  type InsightsScope,
  topElements,
  topErrors,
  topPages,
} from "../../db/queries/insights/insights.ts";
import type { Insights, InsightsInput, InsightsRange } from "./schema.ts";

const DAY_MS = 86_400_000;

function since(range: InsightsRange, now: Date): Date {
  if (range === "today") return startOfUtcDay(now);
  return new Date(now.getTime() - (range === "7d" ? 7 : 30) * DAY_MS);
}

export async function insightsOf(
  deps: Pick<AppDeps, "db">,
  viewer: Viewer,
  input: InsightsInput,
  now = new Date(),
): Promise<Insights> {
  const scope: InsightsScope = {
    organizationId: activeOrganization(viewer),
    projectIds: input.projectIds ?? null,
    since: since(input.range, now),
  };
  if (scope.projectIds?.length === 0) {
    return { rageClicks: [], deadClicks: [], errors: [], pages: [], daily: [] };
  }
  const db = deps.db.kysely;
  // One after another: each reads the range's signal markers, and five at once would hold every
  // dashboard connection this process shares out (api/database_budget.ts) for as long.
  const rage = await topElements(db, scope, "rage_click");
  const dead = await topElements(db, scope, "dead_click");
  const errors = await topErrors(db, scope);
  const pages = await topPages(db, scope);
  const daily = await dailyCounts(db, scope);
  const iso = (ts: number) => new Date(ts).toISOString();
  const element = (r: (typeof rage)[number]) => ({
    selector: r.selector,
    text: r.text,
    sessions: r.sessions,
    users: r.users,
    lastSeenAt: iso(r.last_ts),
  });
  return {
    rageClicks: rage.map(element),
    deadClicks: dead.map(element),
    errors: errors.map((r) => ({
      message: r.message,
      sessions: r.sessions,
      users: r.users,
      lastSeenAt: iso(r.last_ts),
    })),
    pages: pages.map((r) => ({
      pathname: r.pathname,
      sessions: r.sessions,
      errors: r.errors,
      rageClicks: r.rage_clicks,
      deadClicks: r.dead_clicks,
    })),
    daily: daily.map((r) => ({
      day: r.day,
      errors: r.errors,
      rageClicks: r.rage_clicks,
      deadClicks: r.dead_clicks,
    })),
  };
}
