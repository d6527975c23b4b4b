// /api/sessions: the dashboard's sessions list, summary, detail, deletion, pins, events, markers
// and recorded requests.
// Every answer is `no-store`: the data changes with every ingest.
import type { Context } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { validation } from "@/core/errors.ts";
import { sessionList, sessionSummary } from "@/core/sessions/list.ts";
import { sessionDetail, sessionEvents, sessionMarkerList } from "@/core/sessions/detail.ts";
import { removeSession } from "@/core/sessions/erase.ts";
import {
  type EventBatchOut,
  eventsQuery,
  markersQuery,
  networkRequestDetail,
  sessionDetail as detailSchema,
  sessionEvents as eventsSchema,
  sessionFilterQuery,
  sessionListPage,
  sessionListQuery,
  sessionMarkers,
  sessionNetwork,
  sessionPin,
  sessionSummary as summarySchema,
} from "@/core/sessions/schema.ts";
import { sessionNetworkList, sessionNetworkRequest } from "@/core/sessions/network.ts";
import { pinSession } from "@/core/sessions/pins.ts";
import { EVENTS_HEADERS, eventsBody } from "@/http/events_body.ts";
import { dashboardApp, requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { query } from "@/api/validate.ts";
import { sessionShareRoutes } from "@/api/shares/mod.ts";
import { sessionCommentRoutes } from "@/api/comments/mod.ts";
import { sessionExportRoutes } from "@/api/exports/mod.ts";

// Every read is in the viewer's active organization (none → 400; another one's session → 404).
const doc = (route: Omit<RouteDescription, "tag" | "auth" | "errors">) =>
  describe({ tag: "sessions", auth: "cookie", errors: [400], ...route });
const ID = { id: "a session of the active organization" };

/**
 * Mounted at /api/sessions after the ingest routes, whose key-authenticated POST
 * /api/sessions/cancel answers first and so never meets this sub-app's cookie middleware.
 */
export function sessionRoutes(deps: AppDeps) {
  const app = dashboardApp(deps);
  app.use(noStore());

  app.get(
    "/",
    doc({
      summary: "Sessions, keyset-paginated",
      description: "`search`: case-insensitive substring of externalId; `projectIds`: comma " +
        "separated (others' are ignored); `range` applies to createdAt; `limit` 1..100. " +
        "`user`, `visited`, `minDuration`, `maxDuration`, `signals`, `browser`, `os` and " +
        "`device` narrow further, combined with AND; without them the answer is as before.",
      responses: { 200: { description: "a page", body: sessionListPage } },
    }),
    query(sessionListQuery),
    async (c) => c.json(await sessionList(deps, requireViewer(c), c.req.valid("query"))),
  );

  app.get(
    "/summary",
    doc({
      summary: "KPIs of the filtered sessions",
      responses: { 200: { description: "totals (durations in ms)", body: summarySchema } },
    }),
    query(sessionFilterQuery),
    async (c) => c.json(await sessionSummary(deps, requireViewer(c), c.req.valid("query"))),
  );

  for (const [method, pinned] of [["post", true], ["delete", false]] as const) {
    app[method](
      "/:id/pin",
      doc({
        summary: pinned
          ? "Pin a session: it outlives its project's retention (an erasure still deletes it)"
          : "Unpin a session: its project's retention applies again at the next cleanup",
        role: "ADMIN",
        params: ID,
        responses: { 200: { description: "the session's pin", body: sessionPin } },
      }),
      async (c) => c.json(await pinSession(deps, requireViewer(c), c.req.param("id"), pinned)),
    );
  }

  app.get(
    "/:id",
    doc({
      summary: "One session: every stored field, its tracked user and markers",
      params: ID,
      responses: { 200: { description: "the session", body: detailSchema } },
    }),
    async (c) => c.json(await sessionDetail(deps, requireViewer(c), c.req.param("id"))),
  );

  app.delete(
    "/:id",
    doc({
      summary: "Delete a session with its events and markers",
      role: "ADMIN",
      params: ID,
      responses: { 204: { description: "deleted" } },
    }),
    async (c) => {
      await removeSession(deps, requireViewer(c), c.req.param("id"));
      return c.body(null, 204);
    },
  );

  app.get(
    "/:id/markers",
    doc({
      summary: "A session's markers, optionally of one kind",
      params: ID,
      responses: { 200: { description: "markers in time order", body: sessionMarkers } },
    }),
    query(markersQuery),
    async (c) => {
      const kind = c.req.valid("query").kind ?? null;
      return c.json(await sessionMarkerList(deps, requireViewer(c), c.req.param("id"), kind));
    },
  );

  app.get(
    "/:id/network",
    describe({
      tag: "sessions",
      auth: "cookie",
      summary: "A session's recorded requests (fetch and XHR), for the replay's Network tab",
      description: "Only when the project records requests (its `network` settings); headers " +
        "as the SDK kept them, redacted in the browser, and no bodies (`/network/:index` has " +
        "one request's). At most 5000 requests or 16 MiB (`truncated`). 503 when its batches " +
        "are in an object store that does not answer.",
      params: ID,
      responses: { 200: { description: "requests in time order", body: sessionNetwork } },
      errors: [400, 503],
    }),
    async (c) => c.json(await sessionNetworkList(deps, requireViewer(c), c.req.param("id"))),
  );

  app.get(
    "/:id/network/:index",
    describe({
      tag: "sessions",
      auth: "cookie",
      summary: "One recorded request with the bodies the project kept",
      description: "`index` as the list gave it. 404 when the session has no such request.",
      params: { ...ID, index: "the request's `index` in GET /api/sessions/:id/network" },
      responses: { 200: { description: "the request", body: networkRequestDetail } },
      errors: [400, 503],
    }),
    async (c) =>
      c.json(
        await sessionNetworkRequest(
          deps,
          requireViewer(c),
          c.req.param("id"),
          requestIndex(c.req.param("index")),
        ),
      ),
  );

  app.get(
    "/:id/events",
    describe({
      tag: "sessions",
      auth: "cookie",
      summary: "A session's event batches for replay (streamed)",
      description:
        "Ordered by firstTimestamp, then id; `data` is never decompressed server-side. " +
        "`after` (a batch id from an earlier answer) keeps only batches stored since, to follow " +
        "an open session. `from` (ms from the session start) starts at the last batch, in that " +
        "order, holding a full snapshot taken at or before that moment, so a player draws it " +
        "without the earlier batches (every batch when none does); `before` (ms) returns exactly " +
        "the batches `from` at that moment leaves out. Without any of them every batch is returned. " +
        "503 `unavailable` (with Retry-After) when the batches are in an object store " +
        "(EVENTS_STORE) that does not answer; a batch whose stored bytes are missing has empty " +
        "`data`.",
      params: ID,
      responses: { 200: { description: "every batch", body: eventsSchema } },
      // 503: the object store holding the batches (EVENTS_STORE) does not answer
      errors: [400, 503],
    }),
    query(eventsQuery),
    async (c) => {
      const { after, from, before } = c.req.valid("query");
      const options = {
        after: after === undefined ? null : Number(after),
        from: from ?? null,
        before: before ?? null,
      };
      const batches = await sessionEvents(deps, requireViewer(c), c.req.param("id"), options);
      return streamEvents(c, batches);
    },
  );

  // Under this sub-app's middleware: the session's links, comments and exports.
  app.route("/", sessionShareRoutes(deps));
  app.route("/", sessionCommentRoutes(deps));
  app.route("/", sessionExportRoutes(deps));
  return app;
}

/** The events answer, streamed (http/events_body.ts). */
function streamEvents(c: Context<ApiEnv>, batches: AsyncIterable<EventBatchOut>): Response {
  return c.body(eventsBody(batches), 200, EVENTS_HEADERS);
}

/** A recorded request's index as the list gave it: digits only, else 400 naming it. */
function requestIndex(text: string): number {
  if (!/^[0-9]{1,9}$/.test(text)) {
    throw validation("invalid path", [{
      path: "index",
      message: "a request's index from the list",
    }]);
  }
  return Number(text);
}
