// Cookie-authenticated sub-apps: every dashboard resource is built on `dashboardApp`, which
// refuses cross-origin mutations (CSRF) and resolves the signed-in viewer into `c.var.viewer`.
import { type Context, Hono, type MiddlewareHandler } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { authError, forbidden } from "@/core/errors.ts";
import type { Viewer } from "@/core/auth/viewer.ts";
import { accountLimitOf } from "@/http/account_limit.ts";
import { resolveViewer } from "@/http/session.ts";
import { clientAddress } from "@/http/client_address.ts";
import { fromOwnOrigin } from "@/http/same_origin.ts";
import type { ApiEnv } from "./env.ts";
import { databaseBudget } from "@/http/database_budget.ts";

/** A sub-app with the same-origin check and the viewer middleware applied. */
export function dashboardApp(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  app.use(databaseBudget(deps.config.database.dashboardBudgetMs), sameOrigin(deps.config.appUrl));
  app.use(viewer(deps));
  return app;
}

/** Refuses a mutation that does not come from the app's own origin (http/same_origin.ts). */
export function sameOrigin(appUrl: string): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    if (!fromOwnOrigin(c.req.raw, appUrl)) throw forbidden("cross-origin request refused");
    await next();
  };
}

/**
 * Resolves the session cookie into `c.var.viewer` (null when signed out); a signed-in viewer's
 * request holds one of its account's places until it is answered.
 */
export function viewer(deps: AppDeps): MiddlewareHandler<ApiEnv> {
  const limit = accountLimitOf(deps);
  return async (c, next) => {
    const address = clientAddress(c, deps.config.trustProxy);
    const current = await resolveViewer(deps, c.req.header("cookie") ?? null, address);
    c.set("viewer", current);
    if (!current) return await next();
    const leave = limit.enter(current.userId);
    try {
      await next();
    } finally {
      leave();
    }
  };
}

/** A 401 for a signed-out caller before anything else runs (such as reading the body). */
export function requireSignIn(): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    requireViewer(c);
    await next();
  };
}

/** The signed-in viewer, or a 401. */
export function requireViewer(c: Context<ApiEnv>): Viewer {
  const current = c.get("viewer");
  if (!current) throw authError();
  return current;
}
