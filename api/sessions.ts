// /api/sessions: the dashboard's sessions list, summary, detail, deletion, events and markers.
// Every answer is `no-store`: the data changes with every ingest.
import type { Context } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { sessionList, sessionSummary } from "../core/session_list.ts";
import {
  type EventBatchOut,
  removeSession,
  sessionDetail,
  sessionEvents,
  sessionMarkerList,
} from "../core/session_detail.ts";
import { dashboardApp, requireViewer } from "./dashboard.ts";
import type { ApiEnv } from "./env.ts";
import { markersQuery, sessionFilterQuery, sessionListQuery } from "./sessions_schema.ts";
import { parseWith } from "./validate.ts";

/**
 * Mounted at /api/sessions after the ingest routes, whose key-authenticated POST
 * /api/sessions/cancel answers first and so never meets this sub-app's cookie middleware.
 */
export function sessionRoutes(deps: AppDeps) {
  const app = dashboardApp(deps);
  app.use(async (c, next) => {
    await next();
    c.res.headers.set("Cache-Control", "no-store");
  });

  app.get("/", async (c) => {
    const query = parseWith(sessionListQuery, c.req.query(), "query");
    return c.json(await sessionList(deps, requireViewer(c), query));
  });

  app.get("/summary", async (c) => {
    const query = parseWith(sessionFilterQuery, c.req.query(), "query");
    return c.json(await sessionSummary(deps, requireViewer(c), query));
  });

  app.get("/:id", async (c) => {
    return c.json(await sessionDetail(deps, requireViewer(c), c.req.param("id")));
  });

  app.delete("/:id", async (c) => {
    await removeSession(deps, requireViewer(c), c.req.param("id"));
    return c.body(null, 204);
  });

  app.get("/:id/markers", async (c) => {
    const { kind } = parseWith(markersQuery, c.req.query(), "query");
    return c.json(await sessionMarkerList(deps, requireViewer(c), c.req.param("id"), kind ?? null));
  });

  app.get("/:id/events", async (c) => {
    const batches = await sessionEvents(deps, requireViewer(c), c.req.param("id"));
    return streamEvents(c, batches);
  });

  return app;
}

/** `{ batches: [...], nextCursor: null }` written one batch at a time. */
function streamEvents(c: Context<ApiEnv>, batches: AsyncIterable<EventBatchOut>): Response {
  const encoder = new TextEncoder();
  const iterator = batches[Symbol.asyncIterator]();
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"batches":['));
    },
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.enqueue(encoder.encode('],"nextCursor":null}'));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode((first ? "" : ",") + JSON.stringify(next.value)));
      first = false;
    },
    async cancel() {
      await iterator.return?.();
    },
  }, { highWaterMark: 1 });
  return c.body(body, 200, { "Content-Type": "application/json; charset=UTF-8" });
}
