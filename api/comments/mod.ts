// Comments on a moment: POST/GET /api/sessions/:id/comments (mounted inside the sessions sub-app,
// whose cookie middleware and no-store they share) and DELETE /api/comments/:id.
import { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { addComment, listComments, removeComment } from "@/core/comments/comments.ts";
import { comment, commentList, createCommentBody } from "@/core/comments/schema.ts";
import { dashboardApp, requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { body } from "@/api/validate.ts";

const doc = (route: Omit<RouteDescription, "tag" | "auth">) =>
  describe({ tag: "comments", auth: "cookie", ...route });
const SESSION = { id: "a session of the active organization" };

/** The session's comments; mount inside the sessions sub-app (api/sessions/mod.ts). */
export function sessionCommentRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.post(
    "/:id/comments",
    doc({
      summary: "Comment on a moment of the session",
      description: "`offsetMs`: ms from the session's first event, at most its duration.",
      params: SESSION,
      responses: { 201: { description: "the comment", body: comment } },
      errors: [400],
    }),
    body(createCommentBody),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(await addComment(deps, viewer, c.req.param("id"), c.req.valid("json")), 201);
    },
  );

  app.get(
    "/:id/comments",
    doc({
      summary: "The session's comments, in time order",
      params: SESSION,
      responses: { 200: { description: "by offsetMs", body: commentList } },
      errors: [400],
    }),
    async (c) => c.json(await listComments(deps, requireViewer(c), c.req.param("id"))),
  );

  return app;
}

/** DELETE /api/comments/:id. */
export function commentRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);
  app.use(noStore());
  app.delete(
    "/:id",
    doc({
      summary: "Delete a comment (its author's own, or any for an ADMIN+)",
      params: { id: "a comment on a session of the active organization" },
      responses: { 204: { description: "deleted" } },
      errors: [400, 403],
    }),
    async (c) => {
      await removeComment(deps, requireViewer(c), c.req.param("id"));
      return c.body(null, 204);
    },
  );
  return app;
}
