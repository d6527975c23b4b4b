// /api/user/invites: the signed-in user's pending invites, and accepting or declining one.
// Mounted inside the user sub-app, whose middleware resolves the viewer.
import { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { acceptInvite, declineInvite, listUserInvites } from "../core/user_invites.ts";
import { requireViewer } from "./dashboard.ts";
import type { ApiEnv } from "./env.ts";

export function userInviteRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get("/", async (c) => {
    const viewer = requireViewer(c);
    c.header("Cache-Control", "no-store");
    return c.json(await listUserInvites(deps, viewer));
  });

  app.post("/:inviteId/accept", async (c) => {
    const viewer = requireViewer(c);
    return c.json(await acceptInvite(deps, viewer, { inviteId: c.req.param("inviteId") }));
  });

  app.post("/:inviteId/decline", async (c) => {
    const viewer = requireViewer(c);
    return c.json(await declineInvite(deps, viewer, { inviteId: c.req.param("inviteId") }));
  });

  return app;
}
