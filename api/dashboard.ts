// Cookie-authenticated sub-apps: every dashboard resource is built on `dashboardApp`, which
// refuses cross-origin mutations (CSRF) and resolves the signed-in viewer into `c.var.viewer`.
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { authError, forbidden } from "../core/errors.ts";
import { resolveViewer, type Viewer } from "../core/viewer.ts";
import type { ApiEnv } from "./env.ts";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** A sub-app with the same-origin check and the viewer middleware applied. */
export function dashboardApp(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use(sameOrigin(deps.config.appUrl), viewer(deps));
  return app;
}

/**
 * Refuses a mutation unless the browser says it comes from the app's own origin: the Origin
 * header equals APP_URL's origin, or (without Origin) Sec-Fetch-Site is same-origin.
 */
export function sameOrigin(appUrl: string): MiddlewareHandler<ApiEnv> {
  const own = new URL(appUrl).origin;
  return async (c, next) => {
    if (!SAFE_METHODS.has(c.req.method)) {
      const origin = c.req.header("origin");
      const ok = origin ? origin === own : c.req.header("sec-fetch-site") === "same-origin";
      if (!ok) throw forbidden("cross-origin request refused");
    }
    await next();
  };
}

/** Resolves the session cookie into `c.var.viewer` (null when signed out). */
export function viewer(deps: AppDeps): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    c.set("viewer", await resolveViewer(deps, c.req.header("cookie") ?? null));
    await next();
  };
}

/** The signed-in viewer, or a 401. */
export function requireViewer(c: Context<ApiEnv>): Viewer {
  const current = c.get("viewer");
  if (!current) throw authError();
  return current;
}
