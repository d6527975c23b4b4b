// /api/organizations: the viewer's organisations, switching the active one, rename and delete,
// and the member roster with role changes and removal.
import type { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { changeMemberRole, listMemberships, removeMember } from "../core/members.ts";
import {
  createOrganization,
  deleteOrganization,
  listOrganizations,
  renameOrganization,
  switchOrganization,
} from "../core/organizations.ts";
import { dashboardApp, requireViewer } from "./dashboard.ts";
import type { ApiEnv } from "./env.ts";
import { inviteRoutes } from "./invites.ts";
import {
  deleteOrganizationBody as confirmSchema,
  memberRoleBody as roleSchema,
  organizationNameBody as nameSchema,
  switchOrganizationBody as switchSchema,
} from "./organizations_schema.ts";
import { parseWith } from "./validate.ts";

const body = async (c: { req: { json(): Promise<unknown> } }) =>
  await c.req.json().catch(() => null);

export function organizationRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);

  app.get("/", async (c) => c.json(await listOrganizations(deps, requireViewer(c))));

  app.post("/", async (c) => {
    const viewer = requireViewer(c);
    const input = parseWith(nameSchema, await body(c), "body");
    return c.json(await createOrganization(deps, viewer, input), 201);
  });

  app.patch("/active", async (c) => {
    const viewer = requireViewer(c);
    await switchOrganization(deps, viewer, parseWith(switchSchema, await body(c), "body"));
    return c.body(null, 204);
  });

  app.patch("/:orgId", async (c) => {
    const viewer = requireViewer(c);
    const { name } = parseWith(nameSchema, await body(c), "body");
    return c.json(
      await renameOrganization(deps, viewer, { organizationId: c.req.param("orgId"), name }),
    );
  });

  app.delete("/:orgId", async (c) => {
    const viewer = requireViewer(c);
    const { confirmation } = parseWith(confirmSchema, await body(c), "body");
    await deleteOrganization(deps, viewer, { organizationId: c.req.param("orgId"), confirmation });
    return c.body(null, 204);
  });

  app.get("/:orgId/members", async (c) => {
    const viewer = requireViewer(c);
    return c.json(await listMemberships(deps, viewer, { organizationId: c.req.param("orgId") }));
  });

  app.patch("/:orgId/members/:memberId", async (c) => {
    const viewer = requireViewer(c);
    const { role } = parseWith(roleSchema, await body(c), "body");
    const { orgId: organizationId, memberId } = c.req.param();
    return c.json(await changeMemberRole(deps, viewer, { organizationId, memberId, role }));
  });

  app.delete("/:orgId/members/:memberId", async (c) => {
    const viewer = requireViewer(c);
    const { orgId: organizationId, memberId } = c.req.param();
    await removeMember(deps, viewer, { organizationId, memberId });
    return c.body(null, 204);
  });

  app.route("/", inviteRoutes(deps));

  return app;
}
