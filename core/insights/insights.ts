// GET /api/insights and the /insights page (docs/decisions.md "Insights"): the elements people
// rage- and dead-click, the errors they meet, the endpoints that fail them, the pages where it
// happens and a daily trend, in the active organization.
import type { AppDeps } from "@/core/deps.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { activeOrganization } from "@/core/org_access.ts";
import { startOfUtcDay } from "@/core/sessions/list.ts";
import {
  dailyCounts,
  hourlyCounts,
  type InsightsScope,
  topElements,
  topErrors,
  topPages,
} from "@/db/queries/insights/insights.ts";
import { topFailingEndpoints } from "@/db/queries/insights/endpoints.ts";
import type { Insights, InsightsInput, InsightsRange } from "./schema.ts";

const DAY_MS = 86_400_000;

/**
 * The range's start: the beginning of the UTC day it falls in, as the rollups (migration 0017)
 * count sessions by the day they were created (7d reads up to a day more than 168 hours). `all` has
 * none: what is kept (each project's retention) bounds it.
 */
function since(range: InsightsRange, now: Date): Date {
  if (range === "all") return new Date(0);
  if (range === "today") return startOfUtcDay(now);
  return startOfUtcDay(new Date(now.getTime() - (range === "7d" ? 7 : 30) * DAY_MS));
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
    return {
      rageClicks: [],
      deadClicks: [],
      errors: [],
      endpoints: [],
      pages: [],
      daily: [],
      hourly: [],
    };
  }
  const db = deps.db.kysely;
  // One after another: each reads only the range's rollup rows, so five connections at once would
  // take the dashboard's share of the pool (http/database_budget.ts) for little gain.
  const rage = await topElements(db, scope, "rage_click");
  const dead = await topElements(db, scope, "dead_click");
  const errors = await topErrors(db, scope);
  const endpoints = await topFailingEndpoints(db, scope);
  const pages = await topPages(db, scope);
  const daily = await dailyCounts(db, scope);
  // Today's trend by the hour, as a day is one point (migration 0032)
  const hourly = input.range === "today" ? await hourlyCounts(db, scope) : [];
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
      fingerprint: r.fingerprint,
      message: r.message,
      stack: r.stack,
      sessions: r.sessions,
      users: r.users,
      firstSeenAt: iso(r.first_ts),
      lastSeenAt: iso(r.last_ts),
    })),
    endpoints: endpoints.map((r) => ({
      endpoint: r.endpoint,
      sessions: r.sessions,
      failures: r.failures,
      lastStatus: r.last_status,
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
    hourly: hourly.map((r) => ({
      hour: `${r.hour}:00:00.000Z`,
      errors: r.errors,
      rageClicks: r.rage_clicks,
      deadClicks: r.dead_clicks,
    })),
  };
}
