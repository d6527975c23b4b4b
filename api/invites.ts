// /api/organizations/{orgId}/invites: list (VIEWER+), create-or-refresh, refresh and revoke
// (ADMIN+). Mounted inside the organisations sub-app, whose middleware resolves the viewer.
import { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import {
  createOrRefreshInvite,
  listInvites,
  refreshExistingInvite,
  revokeInvite,
} from "../core/invites.ts";
import { requireViewer } from "./dashboard.ts";
import type { ApiEnv } from "./env.ts";
import {
  createInviteBody as createSchema,
  refreshInviteBody as refreshSchema,
} from "./invites_schema.ts";
import { parseWith } from "./validate.ts";

export function inviteRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.get("/:orgId/invites", async (c) => {
    const viewer = requireViewer(c);
    c.header("Cache-Control", "no-store");
    return c.json(await listInvites(deps, viewer, { organizationId: c.req.param("orgId") }));
  });

  app.post("/:orgId/invites", async (c) => {
    const viewer = requireViewer(c);
    const input = parseWith(createSchema, await c.req.json().catch(() => null), "body");
    const { invite, created } = await createOrRefreshInvite(
      deps,
      viewer,
      { organizationId: c.req.param("orgId"), ...input },
      { requestId: c.var.requestId },
    );
    return c.json(invite, created ? 201 : 200);
  });

  app.patch("/:orgId/invites/:inviteId", async (c) => {
    const viewer = requireViewer(c);
    const raw = await c.req.text();
    const input = parseWith(refreshSchema, raw ? safeJson(raw) : {}, "body");
    const { orgId: organizationId, inviteId } = c.req.param();
    return c.json(
      await refreshExistingInvite(deps, viewer, { organizationId, inviteId, ...input }, {
        requestId: c.var.requestId,
      }),
    );
  });

  app.delete("/:orgId/invites/:inviteId", async (c) => {
    const viewer = requireViewer(c);
    const { orgId: organizationId, inviteId } = c.req.param();
    await revokeInvite(deps, viewer, { organizationId, inviteId }, { requestId: c.var.requestId });
    return c.body(null, 204);
  });

  return app;
}

/** An unparsable body is handed to zod as null, which reports it as invalid. */
function safeJson(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
