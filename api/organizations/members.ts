// /api/organizations/{orgId}/members: the roster (VIEWER+), role changes (OWNER) and removal or
// leaving. Mounted inside the organizations sub-app, whose middleware resolves the viewer.
import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import { changeMemberRole, listMemberships, removeMember } from "@/core/organizations/members.ts";
import { memberRoleBody, membership } from "@/core/organizations/schema.ts";
import { requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { body } from "@/api/validate.ts";
import { ORG, organizationDoc as doc } from "./doc.ts";

export function memberRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get(
    "/:orgId/members",
    doc({
      summary: "Members, oldest first",
      role: "VIEWER",
      params: ORG,
      responses: { 200: { description: "members", body: z.array(membership) } },
    }),
    async (c) => {
      const input = { organizationId: c.req.param("orgId") };
      return c.json(await listMemberships(deps, requireViewer(c), input));
    },
  );

  app.patch(
    "/:orgId/members/:memberId",
    doc({
      summary: "Change a member's role",
      description: "Demoting the last OWNER → 409.",
      role: "OWNER",
      params: ORG,
      responses: { 200: { description: "the member", body: membership } },
      errors: [409],
    }),
    body(memberRoleBody),
    async (c) => {
      const { orgId: organizationId, memberId } = c.req.param();
      const input = { organizationId, memberId, ...c.req.valid("json") };
      return c.json(await changeMemberRole(deps, requireViewer(c), input));
    },
  );

  app.delete(
    "/:orgId/members/:memberId",
    doc({
      summary: "Remove a member, or leave",
      description: "Anyone may remove themselves; only an OWNER removes others. The last OWNER " +
        "cannot be removed and the only member cannot leave (409); an OWNER who leaves hands " +
        "ownership on.",
      params: ORG,
      responses: { 204: { description: "removed" } },
      errors: [403, 409],
    }),
    async (c) => {
      const { orgId: organizationId, memberId } = c.req.param();
      await removeMember(deps, requireViewer(c), { organizationId, memberId });
      return c.body(null, 204);
    },
  );

  return app;
}
