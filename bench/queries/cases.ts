// What the query benchmark requests: the sessions list (first pages of each sort and direction,
// pages 10,000 rows deep, searches, a project filter), the tracked-users list (each sort, statuses),
// the KPI aggregates, and the heavy tracked user's activity and timeline.
import { type Case, type Client, cursorAt, getJson } from "./latency.ts";
import { HOT_USER_ID, projectId } from "./seed.ts";

export async function buildCases(client: Client, deepRows: number): Promise<Case[]> {
  const q = (cursor: string) => `cursor=${encodeURIComponent(cursor)}`;
  const dateDeep = await cursorAt(client, "/api/sessions", deepRows);
  const durationDeep = await cursorAt(client, "/api/sessions?sort=duration", deepRows);
  // A rare search: 8 characters of one session's externalId (a UUID); a common one: 3 hex digits.
  const first = await getJson(client, "/api/sessions?limit=1") as {
    data: { externalId: string }[];
  };
  const rare = first.data[0].externalId.slice(9, 17);
  const deep = deepRows.toLocaleString("en");
  const sessions: Case[] = [
    ["sessions: first page (date desc)", ""],
    ["sessions: date asc", "sortDir=asc"],
    ["sessions: duration desc", "sort=duration"],
    ["sessions: duration asc", "sort=duration&sortDir=asc"],
    [`sessions: ${deep} rows deep (date desc)`, q(dateDeep)],
    [`sessions: ${deep} rows deep (duration desc)`, `sort=duration&${q(durationDeep)}`],
    [`sessions: search "${rare}" (rare)`, `search=${rare}`],
    [`sessions: search "a3f" (common)`, "search=a3f"],
    ["sessions: one project, range 7d", `projectIds=${projectId(3)}&range=7d`],
  ].map(([name, query]) => ({ name, group: "list" as const, path: `/api/sessions?${query}` }));
  // the search filters, each alone, and user + signals together
  const filters: Case[] = [
    [`sessions: user "user-4242" (rare)`, "user=user-4242"],
    [`sessions: user "pro" (a trait value, common)`, "user=pro"],
    ["sessions: visited /checkout", `visited=${encodeURIComponent("/checkout")}`],
    ["sessions: visited /products/*", `visited=${encodeURIComponent("/products/*")}`],
    ["sessions: minDuration 10 min", "minDuration=600000"],
    ["sessions: maxDuration 5 s", "maxDuration=5000"],
    ["sessions: signals error", "signals=error"],
    ["sessions: signals rage_click,dead_click", "signals=rage_click,dead_click"],
    ["sessions: browser Opera (1 %)", "browser=Opera"],
    ["sessions: os iOS", "os=iOS"],
    ["sessions: device tablet", "device=tablet"],
    ["sessions: sort signals", "sort=signals"],
    [`sessions: user "user-42" + signals error`, "user=user-42&signals=error"],
    [`sessions: user "pro" + signals rage_click`, "user=pro&signals=rage_click"],
  ].map(([name, query]) => ({ name, group: "filter" as const, path: `/api/sessions?${query}` }));
  const users: Case[] = [
    ["tracked users: last-seen desc", ""],
    ["tracked users: last-seen asc", "sortDir=asc"],
    ["tracked users: sessions desc", "sort=sessions"],
    ["tracked users: active-time desc", "sort=active-time"],
    ["tracked users: newest desc", "sort=newest"],
    ["tracked users: status ACTIVE_24H", "statuses=ACTIVE_24H"],
    ["tracked users: status ONLINE", "statuses=ONLINE"],
  ].map(([name, query]) => ({ name, group: "list" as const, path: `/api/tracked-users?${query}` }));
  const hot = `/api/tracked-users/${HOT_USER_ID}`;
  return [
    // the floor: the cookie check and one small row, no list query
    { name: "floor: GET /api/user", group: "list", path: "/api/user" },
    ...sessions,
    ...filters,
    ...users,
    { name: "sessions summary (all)", group: "kpi", path: "/api/sessions/summary" },
    { name: "sessions summary (today)", group: "kpi", path: "/api/sessions/summary?range=today" },
    { name: "sessions summary (7d)", group: "kpi", path: "/api/sessions/summary?range=7d" },
    { name: "sessions summary (30d)", group: "kpi", path: "/api/sessions/summary?range=30d" },
    {
      name: "sessions summary (one project, 7d)",
      group: "kpi",
      path: `/api/sessions/summary?projectIds=${projectId(3)}&range=7d`,
    },
    { name: "tracked-users summary", group: "kpi", path: "/api/tracked-users/summary" },
    { name: "insights 7d", group: "insights", path: "/api/insights?range=7d" },
    { name: "insights today", group: "insights", path: "/api/insights?range=today" },
    { name: "hot user activity 24h", group: "activity", path: `${hot}/activity?range=24h` },
    { name: "hot user activity 7d", group: "activity", path: `${hot}/activity?range=7d` },
    { name: "hot user timeline 24h", group: "activity", path: `${hot}/timeline?range=24h` },
    { name: "hot user timeline 7d", group: "activity", path: `${hot}/timeline?range=7d` },
  ];
}
