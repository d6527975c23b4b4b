// /api/user/invites: the signed-in user's pending invites, and accepting or declining one.
// Mounted inside the user sub-app, whose middleware resolves the viewer.
import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import { userInvite } from "@/core/organizations/schema.ts";
import { acceptInvite, declineInvite, listUserInvites } from "@/core/account/invites.ts";
import { requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe } from "@/api/openapi/route.ts";

const answerDoc = (verb: "accept" | "decline", outcome: string) =>
  describe({
    summary: `${verb[0].toUpperCase()}${verb.slice(1)} an invite`,
    description: `${outcome} Addressed to another email → 403; past its expiry → 410 (the ` +
      "invite becomes EXPIRED); already answered or already a member → 409.",
    tag: "user",
    auth: "cookie",
    responses: { 200: { description: "the answered invite", body: userInvite } },
    errors: [409, 410],
  });

export function userInviteRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get(
    "/",
    describe({
      summary: "Pending invites for the signed-in user's email",
      tag: "user",
      auth: "cookie",
      responses: { 200: { description: "invites", body: z.array(userInvite) } },
    }),
    noStore(),
    async (c) => c.json(await listUserInvites(deps, requireViewer(c))),
  );

  app.post(
    "/:inviteId/accept",
    answerDoc("accept", "Joins the organization (made active if the user has none)."),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(await acceptInvite(deps, viewer, { inviteId: c.req.param("inviteId") }));
    },
  );

  app.post(
    "/:inviteId/decline",
    answerDoc("decline", "Marks the invite DECLINED."),
    async (c) => {
      const viewer = requireViewer(c);
      return c.json(await declineInvite(deps, viewer, { inviteId: c.req.param("inviteId") }));
    },
  );

  return app;
}
