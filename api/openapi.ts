// GET /api/openapi.json: every endpoint of the service, described from the zod schemas the
// handlers parse with. ROUTE_DOCS is the registry tests/openapi_test.ts holds the app to.
import { Hono } from "hono";
import { VERSION } from "../app_deps.ts";
import { authRoutes } from "./auth_routes_doc.ts";
import type { ApiEnv } from "./env.ts";
import { ingestRoutes } from "./ingest_routes_doc.ts";
import { oauthRoutes } from "./oauth_routes_doc.ts";
import { openApiDocument } from "./openapi_document.ts";
import type { RouteDoc } from "./openapi_route.ts";
import { organizationRoutes } from "./organizations_routes_doc.ts";
import { passkeyRoutes } from "./passkeys_routes_doc.ts";
import { projectRoutes } from "./projects_routes_doc.ts";
import { serviceRoutes } from "./service_routes_doc.ts";
import { sessionRoutes } from "./sessions_routes_doc.ts";
import { trackedUserRoutes } from "./tracked_users_routes_doc.ts";
import { userRoutes } from "./user_routes_doc.ts";

export const ROUTE_DOCS: RouteDoc[] = [
  ...serviceRoutes,
  ...ingestRoutes,
  ...authRoutes,
  ...oauthRoutes,
  ...passkeyRoutes,
  ...userRoutes,
  ...organizationRoutes,
  ...projectRoutes,
  ...sessionRoutes,
  ...trackedUserRoutes,
];

export function openApiRoutes(): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  let document: string | null = null; // built on first request: it never changes at run time
  app.get("/openapi.json", (c) => {
    document ??= JSON.stringify(openApiDocument(ROUTE_DOCS, { version: VERSION }));
    return c.body(document, 200, { "Content-Type": "application/json; charset=UTF-8" });
  });
  return app;
}
