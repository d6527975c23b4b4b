// The /api sub-app: middleware shared by every endpoint, then one sub-app per resource.
import { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import type { ApiEnv } from "./env.ts";
import { authRoutes } from "./auth/mod.ts";
import { cronRoutes } from "./service/cron.ts";
import { avatarRoutes } from "./service/avatars.ts";
import { healthRoutes } from "./service/health.ts";
import { ingestRoutes } from "./ingest/mod.ts";
import { insightsRoutes } from "./insights/mod.ts";
import { heatmapsRoutes } from "./heatmaps/mod.ts";
import { openApiRoutes } from "./service/openapi.ts";
import { renderError } from "@/http/middleware.ts";
import { organizationRoutes } from "./organizations/mod.ts";
import { projectRoutes } from "./projects/mod.ts";
import { trackedUserRoutes } from "./tracked_users/mod.ts";
import { sessionRoutes } from "./sessions/mod.ts";
import { accountRoutes } from "./account/mod.ts";
import { shareRoutes } from "./shares/mod.ts";
import { commentRoutes } from "./comments/mod.ts";
import { alertRoutes } from "./alerts/mod.ts";
import { savedSearchRoutes } from "./saved_searches/mod.ts";

export function createApi(deps: AppDeps): Hono<ApiEnv> {
  const api = new Hono<ApiEnv>();
  api.onError(renderError);
  api.use(async (c, next) => {
    c.set("bodyTimeoutMs", deps.config.http.bodyTimeoutMs);
    await next();
  });
  api.route("/", healthRoutes(deps));
  api.route("/", ingestRoutes(deps));
  api.route("/", openApiRoutes(api));
  api.route("/auth", authRoutes(deps));
  api.route("/cron", cronRoutes(deps));
  // After ingest: its POST /sessions/cancel must answer before the cookie middleware here.
  api.route("/sessions", sessionRoutes(deps));
  api.route("/shares", shareRoutes(deps));
  api.route("/comments", commentRoutes(deps));
  api.route("/saved-searches", savedSearchRoutes(deps));
  api.route("/insights", insightsRoutes(deps));
  api.route("/heatmaps", heatmapsRoutes(deps));
  api.route("/alert-rules", alertRoutes(deps));
  api.route("/user", accountRoutes(deps));
  api.route("/avatars", avatarRoutes());
  api.route("/organizations", organizationRoutes(deps));
  api.route("/projects", projectRoutes(deps));
  api.route("/tracked-users", trackedUserRoutes(deps));
  // A mounted sub-app's notFound is not consulted, so the catch-all is a route of its own.
  api.all("*", (c) => c.json({ kind: "not_found", message: "no such endpoint" }, 404));
  return api;
}
