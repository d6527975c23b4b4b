// The /api sub-app: middleware shared by every endpoint, then one sub-app per resource.
import { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import type { ApiEnv } from "./env.ts";
import { authRoutes } from "./auth.ts";
import { cronRoutes } from "./cron.ts";
import { avatarRoutes } from "./avatars.ts";
import { healthRoutes } from "./health.ts";
import { ingestRoutes } from "./ingest.ts";
import { openApiRoutes } from "./openapi.ts";
import { renderError } from "./middleware.ts";
import { organizationRoutes } from "./organizations.ts";
import { projectRoutes } from "./projects.ts";
import { trackedUserRoutes } from "./tracked_users.ts";
import { sessionRoutes } from "./sessions.ts";
import { userRoutes } from "./user.ts";

export function createApi(deps: AppDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();
  api.onError(renderError);
  api.route("/", healthRoutes(deps));
  api.route("/", ingestRoutes(deps));
  api.route("/", openApiRoutes());
  api.route("/auth", authRoutes(deps));
  api.route("/cron", cronRoutes(deps));
  // After ingest: its POST /sessions/cancel must answer before the cookie middleware here.
  api.route("/sessions", sessionRoutes(deps));
  api.route("/user", userRoutes(deps));
  api.route("/avatars", avatarRoutes());
  api.route("/organizations", organizationRoutes(deps));
  api.route("/projects", projectRoutes(deps));
  api.route("/tracked-users", trackedUserRoutes(deps));
  // A mounted sub-app's notFound is not consulted, so the catch-all is a route of its own.
  api.all("*", (c) => c.json({ kind: "not_found", message: "no such endpoint" }, 404));
  return api;
}
