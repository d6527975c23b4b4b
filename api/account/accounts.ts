// /api/user/accounts: unlinking a linked OAuth provider (the list is `accounts` in GET /api/user).
// Mounted inside the user sub-app, whose middleware resolves the viewer.
import { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { unlinkAccount } from "@/core/account/account_unlink.ts";
import { requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { describe } from "@/api/openapi/route.ts";

export function userAccountRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();

  app.delete(
    "/:provider",
    describe({
      summary: "Unlink an OAuth provider",
      description: "The last way to sign in cannot be unlinked (409); passkeys do not count.",
      tag: "user",
      auth: "cookie",
      params: { provider: "github or google" },
      responses: { 204: { description: "unlinked" } },
      errors: [409],
    }),
    async (c) => {
      await unlinkAccount(deps, requireViewer(c), { provider: c.req.param("provider") }, {
        requestId: c.var.requestId,
      });
      return c.body(null, 204);
    },
  );

  return app;
}
