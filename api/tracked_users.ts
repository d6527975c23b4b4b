// /api/tracked-users: list, KPIs, detail, heartbeat, display-name overrides, deletion, timeline,
// per-user sessions and activity. Every answer is `no-store`: the data changes with every ingest.
import type { AppDeps } from "../app_deps.ts";
import { trackedUserActivity } from "../core/tracked_user_activity.ts";
import {
  removeTrackedUser,
  setDisplayName,
  trackedUserDetail,
  trackedUserStatus,
} from "../core/tracked_user_detail.ts";
import { trackedUserList, trackedUserSummary } from "../core/tracked_user_list.ts";
import { trackedUserSessions } from "../core/tracked_user_sessions.ts";
import { trackedUserTimeline } from "../core/tracked_user_timeline.ts";
import { dashboardApp, requireViewer } from "./dashboard.ts";
import {
  activityQuery,
  displayNameBody,
  timelineQuery,
  trackedUserListQuery,
  userSessionsQuery,
} from "./tracked_users_schema.ts";
import { parseWith } from "./validate.ts";

/** Mounted at /api/tracked-users. */
export function trackedUserRoutes(deps: AppDeps) {
  const app = dashboardApp(deps);
  app.use(async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "no-store");
  });

  app.get("/", async (c) => {
    const query = parseWith(trackedUserListQuery, c.req.query(), "query");
    return c.json(await trackedUserList(deps, requireViewer(c), query));
  });

  app.get("/summary", async (c) => {
    return c.json(await trackedUserSummary(deps, requireViewer(c)));
  });

  app.get("/:id", async (c) => {
    return c.json(await trackedUserDetail(deps, requireViewer(c), c.req.param("id")));
  });

  app.get("/:id/status", async (c) => {
    return c.json(await trackedUserStatus(deps, requireViewer(c), c.req.param("id")));
  });

  app.patch("/:id/display-name", async (c) => {
    const viewer = requireViewer(c);
    const body = parseWith(displayNameBody, await c.req.json().catch(() => null), "body");
    return c.json(await setDisplayName(deps, viewer, c.req.param("id"), body));
  });

  app.delete("/:id", async (c) => {
    await removeTrackedUser(deps, requireViewer(c), c.req.param("id"));
    return c.body(null, 204);
  });

  app.get("/:id/timeline", async (c) => {
    const viewer = requireViewer(c);
    const { range } = parseWith(timelineQuery, c.req.query(), "query");
    return c.json(await trackedUserTimeline(deps, viewer, c.req.param("id"), range));
  });

  app.get("/:id/sessions", async (c) => {
    const viewer = requireViewer(c);
    const query = parseWith(userSessionsQuery, c.req.query(), "query");
    return c.json(await trackedUserSessions(deps, viewer, c.req.param("id"), query));
  });

  app.get("/:id/activity", async (c) => {
    const viewer = requireViewer(c);
    const query = parseWith(activityQuery, c.req.query(), "query");
    return c.json(await trackedUserActivity(deps, viewer, c.req.param("id"), query));
  });

  return app;
}
