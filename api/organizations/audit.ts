// /api/organizations/{orgId}/audit: the organization's audit log (ADMIN+), newest first, in keyset
// pages; `action` keeps one action's rows. Mounted inside the organizations sub-app.
import { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { auditLog } from "@/core/audit/list.ts";
import { auditPage, auditQuery } from "@/core/audit/schema.ts";
import { requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { query } from "@/api/validate.ts";
import { ORG, organizationDoc as doc } from "./doc.ts";

export function auditRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.get(
    "/:orgId/audit",
    doc({
      summary: "The audit log, newest first",
      description: "Who changed members, invites, projects, keys, settings and links, exported, " +
        "deleted, erased or pinned what, from which address; replay views when the organization " +
        "audits them (`auditViews`). Rows are kept 400 days. A malformed cursor or an unknown " +
        "action → 400 naming the field.",
      role: "ADMIN",
      params: ORG,
      responses: { 200: { description: "a page of rows", body: auditPage } },
    }),
    query(auditQuery),
    async (c) => {
      const input = { organizationId: c.req.param("orgId"), ...c.req.valid("query") };
      return c.json(await auditLog(deps, requireViewer(c), input));
    },
  );
  return app;
}
