// /api/tracked-users: list, KPIs, detail, heartbeat (one or many), display-name overrides,
// deletion, erasure, export, timeline, per-user sessions and activity. Every answer is `no-store`: the data changes
// with every ingest.
import type { AppDeps } from "@/core/deps.ts";
import { LIVE_WITHIN_MS } from "@/core/sessions/live.ts";
import { sessionListPage } from "@/core/sessions/schema.ts";
import { trackedUserActivity } from "@/core/tracked_users/activity.ts";
import { eraseTrackedUser } from "@/core/tracked_users/erase.ts";
import { trackedUserExport } from "@/core/tracked_users/export.ts";
import {
  removeTrackedUser,
  setDisplayName,
  trackedUserDetail,
  trackedUsersHeartbeat,
  trackedUserStatus,
} from "@/core/tracked_users/detail.ts";
import { trackedUserList, trackedUserSummary } from "@/core/tracked_users/list.ts";
import { trackedUserSessions } from "@/core/tracked_users/sessions.ts";
import { TIMELINE_LIMITS, trackedUserTimeline } from "@/core/tracked_users/timeline.ts";
import * as schema from "@/core/tracked_users/schema.ts";
import { dashboardApp, requireViewer } from "@/api/dashboard.ts";
import { noStore } from "@/api/no_store.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { body, query } from "@/api/validate.ts";
import { requestTextStream } from "@/http/request_stream.ts";

// Every read is in the viewer's active organization (none → 400; another one's user → 404).
const doc = (route: Omit<RouteDescription, "tag" | "auth" | "errors">) =>
  describe({ tag: "tracked users", auth: "cookie", errors: [400], ...route });
const ID = { id: "a tracked user of the active organization" };

/** Mounted at /api/tracked-users. */
export function trackedUserRoutes(deps: AppDeps) {
  const app = dashboardApp(deps);
  app.use(noStore());

  app.get(
    "/",
    doc({
      summary: "Tracked users, filtered, sorted and keyset-paginated",
      description: "`projectIds` and `statuses` are comma separated; `limit` 1..100.",
      responses: { 200: { description: "a page", body: schema.trackedUserPage } },
    }),
    query(schema.trackedUserListQuery),
    async (c) => c.json(await trackedUserList(deps, requireViewer(c), c.req.valid("query"))),
  );

  app.get(
    "/summary",
    doc({
      summary: "KPIs of the organization's tracked users",
      responses: { 200: { description: "counts", body: schema.trackedUserSummary } },
    }),
    async (c) => c.json(await trackedUserSummary(deps, requireViewer(c))),
  );

  app.get(
    "/heartbeat",
    doc({
      summary: "Heartbeat of many tracked users at once (the list page's online dots)",
      description: "`ids` comma separated, 1..100; online when the latest session ended within " +
        `${LIVE_WITHIN_MS} ms. Ids of other organizations (or none) are left out of \`data\`.`,
      responses: { 200: { description: "statuses", body: schema.trackedUserHeartbeat } },
    }),
    query(schema.heartbeatQuery),
    async (c) => {
      const { ids } = c.req.valid("query");
      return c.json(await trackedUsersHeartbeat(deps, requireViewer(c), ids));
    },
  );

  app.get(
    "/:id",
    doc({
      summary: "One tracked user, with the display-name overrides as set",
      params: ID,
      responses: { 200: { description: "the tracked user", body: schema.trackedUserDetail } },
    }),
    async (c) => c.json(await trackedUserDetail(deps, requireViewer(c), c.req.param("id"))),
  );

  app.get(
    "/:id/status",
    doc({
      summary: `Heartbeat: online when the latest session ended within ${LIVE_WITHIN_MS} ms`,
      params: ID,
      responses: { 200: { description: "status", body: schema.trackedUserStatus } },
    }),
    async (c) => c.json(await trackedUserStatus(deps, requireViewer(c), c.req.param("id"))),
  );

  app.patch(
    "/:id/display-name",
    doc({
      summary: "Set or clear the custom name and the display-name trait key",
      role: "ADMIN",
      params: ID,
      responses: { 200: { description: "the tracked user", body: schema.trackedUserDetail } },
    }),
    body(schema.displayNameBody),
    async (c) => {
      const changes = c.req.valid("json");
      return c.json(await setDisplayName(deps, requireViewer(c), c.req.param("id"), changes));
    },
  );

  app.delete(
    "/:id",
    doc({
      summary: "Delete a tracked user; their sessions stay, unlinked",
      role: "ADMIN",
      params: ID,
      responses: { 204: { description: "deleted" } },
    }),
    async (c) => {
      await removeTrackedUser(deps, requireViewer(c), c.req.param("id"));
      return c.body(null, 204);
    },
  );

  app.post(
    "/:id/erase",
    doc({
      summary: "Erase a tracked user and everything recorded of them, at once",
      description: "In one transaction, whatever their number: every session of the user " +
        "(rows, batches held inline, markers, signals, network entries, comments, share links) " +
        "and their data keys, so their bytes in the object store can no longer be decrypted; " +
        "then the user. Each session leaves a tombstone: a late batch for it is answered 410 " +
        "and recreates nothing. The answer counts what went (`keysDestroyed`: data keys of " +
        "offloaded sessions; `inlineBytes`: recorded bytes still in PostgreSQL). Audited as " +
        "`tracked_user.erase`.",
      role: "ADMIN",
      params: ID,
      responses: { 200: { description: "what was erased", body: schema.trackedUserErasure } },
    }),
    async (c) => c.json(await eraseTrackedUser(deps, requireViewer(c), c.req.param("id"))),
  );

  app.get(
    "/:id/export",
    doc({
      summary: "A tracked user's data as one JSON file (a data-subject request)",
      description: "`{ exportedAt, trackedUser, sessions }`: traits and overrides, then each " +
        "session's metadata, `pages` (url markers), `markers`, `comments` and `replayUrl` (an " +
        "absolute link under APP_URL). Streamed as an attachment. Audited as " +
        "`tracked_user.export`.",
      role: "ADMIN",
      params: ID,
      responses: {
        200: { description: "the file (an attachment)", contentType: "application/json" },
      },
    }),
    async (c) => {
      const file = await trackedUserExport(deps, requireViewer(c), c.req.param("id"));
      return c.body(requestTextStream(file.chunks), 200, {
        "Content-Type": "application/json; charset=UTF-8",
        "Content-Disposition": `attachment; filename="${file.name}"`,
      });
    },
  );

  app.get(
    "/:id/timeline",
    doc({
      summary: "Sessions touching the window, cut into periods by url markers",
      description: `Bounded for any user: at most ${TIMELINE_LIMITS.sessions} sessions, the ` +
        "newest by start (listed oldest first), and at most " +
        `${TIMELINE_LIMITS.periods} periods per session (its first). \`totalSessions\` counts ` +
        "the window's sessions and `truncated` is true when sessions or periods were left out; " +
        "`pages` covers the returned periods. The per-user sessions list pages through them all.",
      params: ID,
      responses: { 200: { description: "the timeline", body: schema.trackedUserTimeline } },
    }),
    query(schema.timelineQuery),
    async (c) => {
      const { range } = c.req.valid("query");
      return c.json(await trackedUserTimeline(deps, requireViewer(c), c.req.param("id"), range));
    },
  );

  app.get(
    "/:id/sessions",
    doc({
      summary: "The user's sessions, newest first (userDisplayName and userTraits null)",
      params: ID,
      responses: { 200: { description: "a page", body: sessionListPage } },
    }),
    query(schema.userSessionsQuery),
    async (c) => {
      const input = c.req.valid("query");
      return c.json(await trackedUserSessions(deps, requireViewer(c), c.req.param("id"), input));
    },
  );

  app.get(
    "/:id/activity",
    doc({
      summary: "Event buckets, page distribution and summary over the window",
      params: ID,
      responses: { 200: { description: "activity", body: schema.trackedUserActivity } },
    }),
    query(schema.activityQuery),
    async (c) => {
      const input = c.req.valid("query");
      return c.json(await trackedUserActivity(deps, requireViewer(c), c.req.param("id"), input));
    },
  );

  return app;
}
