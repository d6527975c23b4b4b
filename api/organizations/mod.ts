// /api/organizations: the viewer's organizations, switching the active one, rename and delete;
// the member roster (members.ts) and invites (invites.ts) are mounted under /{orgId}.
import type { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  createOrganization,
  deleteOrganization,
  listOrganizations,
  renameOrganization,
  switchOrganization,
} from "@/core/organizations/organizations.ts";
import {
  deleteOrganizationBody,
  organization,
  organizationNameBody,
  organizationPatchBody,
  switchOrganizationBody,
} from "@/core/organizations/schema.ts";
import { dashboardApp, requireSignIn, requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { body } from "@/api/validate.ts";
import { ORG, organizationDoc } from "./doc.ts";
import { inviteRoutes } from "./invites.ts";
import { memberRoutes } from "./members.ts";
import { auditRoutes } from "./audit.ts";

export function organizationRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);
  // Rosters and roles change with every invite and removal: never cached.
  app.use(noStore(), requireSignIn()); // 401 before a body is read

  app.get(
    "/",
    organizationDoc({
      summary: "The viewer's organizations",
      responses: { 200: { description: "organizations", body: z.array(organization) } },
    }),
    async (c) => c.json(await listOrganizations(deps, requireViewer(c))),
  );

  app.post(
    "/",
    organizationDoc({
      summary: "Create an organization (the viewer becomes its OWNER)",
      responses: { 201: { description: "created", body: organization } },
    }),
    body(organizationNameBody),
    async (c) => c.json(await createOrganization(deps, requireViewer(c), c.req.valid("json")), 201),
  );

  app.patch(
    "/active",
    organizationDoc({
      summary: "Switch the viewer's active organization",
      responses: { 204: { description: "switched" } },
      errors: [404],
    }),
    body(switchOrganizationBody),
    async (c) => {
      await switchOrganization(deps, requireViewer(c), c.req.valid("json"));
      return c.body(null, 204);
    },
  );

  app.patch(
    "/:orgId",
    organizationDoc({
      summary: "Rename an organization, or turn its public links on or off",
      role: "ADMIN",
      params: ORG,
      responses: { 200: { description: "renamed", body: organization } },
    }),
    body(organizationPatchBody),
    async (c) => {
      const input = { organizationId: c.req.param("orgId"), ...c.req.valid("json") };
      return c.json(await renameOrganization(deps, requireViewer(c), input));
    },
  );

  app.delete(
    "/:orgId",
    organizationDoc({
      summary: "Delete an organization with its projects and sessions",
      role: "OWNER",
      params: ORG,
      responses: { 204: { description: "deleted" } },
    }),
    body(deleteOrganizationBody),
    async (c) => {
      const input = { organizationId: c.req.param("orgId"), ...c.req.valid("json") };
      await deleteOrganization(deps, requireViewer(c), input);
      return c.body(null, 204);
    },
  );

  app.route("/", memberRoutes(deps));
  app.route("/", inviteRoutes(deps));
  app.route("/", auditRoutes(deps));
  return app;
}
