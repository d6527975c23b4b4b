// /api/organizations/{orgId}/invites: list (VIEWER+), create-or-refresh, refresh and revoke
// (ADMIN+). Mounted inside the organizations sub-app, whose middleware resolves the viewer.
import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  createOrRefreshInvite,
  listInvites,
  refreshExistingInvite,
  revokeInvite,
} from "@/core/organizations/invites.ts";
import {
  createInviteBody,
  invite,
  refreshInviteBody,
  sentInvite,
} from "@/core/organizations/schema.ts";
import { requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { body } from "@/api/validate.ts";
import { ORG, organizationDoc } from "./doc.ts";

// Sending an invite email: the email belongs to a member (409), the inviter's daily allowance is
// spent (429), or no mail is configured in production (503).
const SEND_ERRORS = [409, 429, 503];
const doc = (route: Parameters<typeof organizationDoc>[0]) =>
  organizationDoc({ role: "ADMIN", params: ORG, ...route });

export function inviteRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get(
    "/:orgId/invites",
    doc({
      summary: "Open invites",
      role: "VIEWER",
      responses: { 200: { description: "invites", body: z.array(invite) } },
    }),
    noStore(),
    async (c) => {
      const input = { organizationId: c.req.param("orgId") };
      return c.json(await listInvites(deps, requireViewer(c), input));
    },
  );

  app.post(
    "/:orgId/invites",
    doc({
      summary: "Invite an email, or refresh its pending invite",
      description: "A pending invite for the email is refreshed (role, expiry in 3 days, email " +
        "resent) instead of duplicated. A member's email → 409; 50 invite emails per inviter " +
        "per UTC day → 429; no mail configured in production → 503.",
      responses: {
        201: { description: "invited", body: sentInvite },
        200: { description: "the pending invite, refreshed", body: sentInvite },
      },
      errors: SEND_ERRORS,
    }),
    body(createInviteBody),
    async (c) => {
      const input = { organizationId: c.req.param("orgId"), ...c.req.valid("json") };
      const context = { requestId: c.var.requestId };
      const sent = await createOrRefreshInvite(deps, requireViewer(c), input, context);
      return c.json(sent.invite, sent.created ? 201 : 200);
    },
  );

  app.patch(
    "/:orgId/invites/:inviteId",
    doc({
      summary: "Refresh an invite: new expiry, email resent, optionally a new role",
      responses: { 200: { description: "refreshed", body: sentInvite } },
      errors: SEND_ERRORS,
    }),
    body(refreshInviteBody, { optional: true }),
    async (c) => {
      const { orgId: organizationId, inviteId } = c.req.param();
      const input = { organizationId, inviteId, ...c.req.valid("json") };
      const context = { requestId: c.var.requestId };
      return c.json(await refreshExistingInvite(deps, requireViewer(c), input, context));
    },
  );

  app.delete(
    "/:orgId/invites/:inviteId",
    doc({ summary: "Revoke an invite", responses: { 204: { description: "revoked" } } }),
    async (c) => {
      const { orgId: organizationId, inviteId } = c.req.param();
      const context = { requestId: c.var.requestId };
      await revokeInvite(deps, requireViewer(c), { organizationId, inviteId }, context);
      return c.body(null, 204);
    },
  );

  return app;
}
