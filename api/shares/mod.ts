// Public links to a session, for the dashboard: POST/GET /api/sessions/:id/shares (mounted inside
// the sessions sub-app, whose cookie middleware and no-store they share) and DELETE
// /api/shares/:id. The links themselves open at /s/:token (routes/s/), never under /api.
import { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { createShare, listShares, revokeShare } from "@/core/shares/shares.ts";
import { createdShare, createShareBody, shareList } from "@/core/shares/schema.ts";
import { dashboardApp, requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { body } from "@/api/validate.ts";

const doc = (route: Omit<RouteDescription, "tag" | "auth">) =>
  describe({ tag: "shares", auth: "cookie", ...route });
const SESSION = { id: "a session of the active organization" };

/** The session's links; mount inside the sessions sub-app (api/sessions/mod.ts). */
export function sessionShareRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.post(
    "/:id/shares",
    doc({
      summary: "Make a public link to the session",
      description: "The link opens the replay signed out at `url` until `expiresAt` (1..720 " +
        "hours), limited to `startMs`..`endMs` (ms from the session's first event) when given, " +
        "with the console only when `showConsole`. The token in `url` is in this answer only; " +
        "the database keeps its SHA-256. 403 when the organization has public links turned off.",
      role: "ADMIN",
      params: SESSION,
      responses: { 201: { description: "the link", body: createdShare } },
      errors: [400],
    }),
    body(createShareBody),
    async (c) => {
      const created = await createShare(
        deps,
        requireViewer(c),
        c.req.param("id"),
        c.req.valid("json"),
      );
      return c.json(created, 201);
    },
  );

  app.get(
    "/:id/shares",
    doc({
      summary: "The session's public links (without their tokens)",
      params: SESSION,
      responses: { 200: { description: "newest first", body: shareList } },
      errors: [400],
    }),
    async (c) => c.json(await listShares(deps, requireViewer(c), c.req.param("id"))),
  );

  return app;
}

/** DELETE /api/shares/:id. */
export function shareRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);
  app.use(noStore());
  app.delete(
    "/:id",
    doc({
      summary: "Revoke a public link: it answers 404 from its next request on",
      role: "ADMIN",
      params: { id: "a link to a session of the active organization" },
      responses: { 204: { description: "revoked" } },
      errors: [400],
    }),
    async (c) => {
      await revokeShare(deps, requireViewer(c), c.req.param("id"));
      return c.body(null, 204);
    },
  );
  return app;
}
