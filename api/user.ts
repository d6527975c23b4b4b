// /api/user: the signed-in user's profile, name, avatar and account deletion.
import type { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { endSession } from "../core/sessions.ts";
import { deleteAccount, getProfile, regenerateAvatar, renameProfile } from "../core/user.ts";
import { dashboardApp, requireViewer } from "./dashboard.ts";
import type { ApiEnv } from "./env.ts";
import { userPasskeyRoutes } from "./user_passkeys.ts";
import { userAccountRoutes } from "./user_accounts.ts";
import { userInviteRoutes } from "./user_invites.ts";
import { deleteUserBody as deleteSchema, renameUserBody as renameSchema } from "./user_schema.ts";
import { parseWith } from "./validate.ts";

export function userRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);
  app.route("/passkeys", userPasskeyRoutes(deps));

  app.get("/", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.json(await getProfile(deps, requireViewer(c)));
  });

  app.patch("/", async (c) => {
    const viewer = requireViewer(c);
    const input = parseWith(renameSchema, await c.req.json().catch(() => null), "body");
    return c.json(await renameProfile(deps, viewer, input));
  });

  app.delete("/", async (c) => {
    const viewer = requireViewer(c);
    const input = parseWith(deleteSchema, await c.req.json().catch(() => null), "body");
    await deleteAccount(deps, viewer, input);
    c.header("Set-Cookie", endSession(deps));
    return c.body(null, 204);
  });

  app.post("/avatar", async (c) => {
    return c.json({ image: await regenerateAvatar(deps, requireViewer(c)) });
  });

  app.route("/invites", userInviteRoutes(deps));
  app.route("/accounts", userAccountRoutes(deps));

  return app;
}
