// Route docs of /api/tracked-users: list, KPIs, detail, heartbeat, overrides, deletion, timeline,
// per-user sessions and activity, in the viewer's active organisation (none → 400), no-store.
import { describeRoute, type RouteDoc } from "./openapi_route.ts";
import { sessionListPage } from "./sessions_schema.ts";
import {
  activityQuery,
  displayNameBody,
  timelineQuery,
  trackedUserActivity,
  trackedUserDetail,
  trackedUserListQuery,
  trackedUserPage,
  trackedUserStatus,
  trackedUserSummary,
  trackedUserTimeline,
  userSessionsQuery,
} from "./tracked_users_schema.ts";

const base = { tag: "tracked users", auth: "cookie", noStore: true, errors: [400] } as const;
const ID = { id: "a tracked user of the active organisation" };
const read = (doc: Omit<RouteDoc, keyof typeof base | "method">) =>
  describeRoute({ ...base, method: "get", ...doc });

export const trackedUserRoutes = [
  read({
    path: "/api/tracked-users",
    summary: "Tracked users, filtered, sorted and keyset-paginated",
    description: "`projectIds` and `statuses` are comma separated; `limit` 1..100.",
    query: trackedUserListQuery,
    responses: { 200: { description: "a page", body: trackedUserPage } },
  }),
  read({
    path: "/api/tracked-users/summary",
    summary: "KPIs of the organisation's tracked users",
    responses: { 200: { description: "counts", body: trackedUserSummary } },
  }),
  read({
    path: "/api/tracked-users/{id}",
    summary: "One tracked user, with the display-name overrides as set",
    params: ID,
    responses: { 200: { description: "the tracked user", body: trackedUserDetail } },
  }),
  read({
    path: "/api/tracked-users/{id}/status",
    summary: "Heartbeat: online when the latest session ended within 120000 ms",
    params: ID,
    responses: { 200: { description: "status", body: trackedUserStatus } },
  }),
  describeRoute({
    ...base,
    method: "patch",
    path: "/api/tracked-users/{id}/display-name",
    summary: "Set or clear the custom name and the display-name trait key",
    role: "ADMIN",
    params: ID,
    body: displayNameBody,
    responses: { 200: { description: "the tracked user", body: trackedUserDetail } },
  }),
  describeRoute({
    ...base,
    method: "delete",
    path: "/api/tracked-users/{id}",
    summary: "Delete a tracked user; their sessions stay, unlinked",
    role: "ADMIN",
    params: ID,
    responses: { 204: { description: "deleted" } },
  }),
  read({
    path: "/api/tracked-users/{id}/timeline",
    summary: "Sessions touching the window, cut into periods by url markers",
    params: ID,
    query: timelineQuery,
    responses: { 200: { description: "the timeline", body: trackedUserTimeline } },
  }),
  read({
    path: "/api/tracked-users/{id}/sessions",
    summary: "The user's sessions, newest first (userDisplayName and userTraits null)",
    params: ID,
    query: userSessionsQuery,
    responses: { 200: { description: "a page", body: sessionListPage } },
  }),
  read({
    path: "/api/tracked-users/{id}/activity",
    summary: "Event buckets, page distribution and summary over the window",
    params: ID,
    query: activityQuery,
    responses: { 200: { description: "activity", body: trackedUserActivity } },
  }),
];
