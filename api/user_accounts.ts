// /api/user/accounts: unlinking a linked OAuth provider (the list is `accounts` in GET /api/user).
// Mounted inside the user sub-app, whose middleware resolves the viewer.
import { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { unlinkAccount } from "../core/account_unlink.ts";
import { requireViewer } from "./dashboard.ts";
import type { ApiEnv } from "./env.ts";

export function userAccountRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.delete("/:provider", async (c) => {
    const viewer = requireViewer(c);
    await unlinkAccount(deps, viewer, { provider: c.req.param("provider") }, {
      requestId: c.var.requestId,
    });
    return c.body(null, 204);
  });

  return app;
}
