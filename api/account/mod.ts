// /api/user: the signed-in user's profile, name, avatar and account deletion; their passkeys,
// invites and linked accounts in the sub-apps beside this one. Signed out, every route is a 401.
import type { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { endSession } from "@/http/session.ts";
import {
  deleteAccount,
  getProfile,
  regenerateAvatar,
  renameProfile,
} from "@/core/account/profile.ts";
import {
  avatarAnswer,
  deleteUserBody,
  renameUserBody,
  userProfile,
} from "@/core/account/schema.ts";
import { dashboardApp, requireSignIn, requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { body } from "@/api/validate.ts";
import { userAccountRoutes } from "./accounts.ts";
import { userInviteRoutes } from "./invites.ts";
import { userPasskeyRoutes } from "./passkeys.ts";

const doc = (route: Omit<RouteDescription, "tag" | "auth">) =>
  describe({ tag: "user", auth: "cookie", ...route });

export function accountRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);
  app.use(requireSignIn());
  app.route("/passkeys", userPasskeyRoutes(deps));

  app.get(
    "/",
    doc({
      summary: "The signed-in user's profile",
      responses: { 200: { description: "profile", body: userProfile } },
    }),
    noStore(),
    async (c) => c.json(await getProfile(deps, requireViewer(c))),
  );

  app.patch(
    "/",
    doc({
      summary: "Rename the signed-in user",
      responses: { 200: { description: "profile", body: userProfile } },
    }),
    body(renameUserBody),
    async (c) => c.json(await renameProfile(deps, requireViewer(c), c.req.valid("json"))),
  );

  app.delete(
    "/",
    doc({
      summary: "Delete the signed-in user's account",
      description: "Organizations they own pass to the oldest ADMIN, else the oldest member.",
      responses: { 204: { description: "deleted; the cookie is cleared" } },
    }),
    body(deleteUserBody),
    async (c) => {
      await deleteAccount(deps, requireViewer(c), c.req.valid("json"));
      c.header("Set-Cookie", endSession(deps));
      return c.body(null, 204);
    },
  );

  app.post(
    "/avatar",
    doc({
      summary: "Draw a new avatar",
      responses: { 200: { description: "the new picture's URL", body: avatarAnswer } },
    }),
    async (c) => c.json({ image: await regenerateAvatar(deps, requireViewer(c)) }),
  );

  app.route("/invites", userInviteRoutes(deps));
  app.route("/accounts", userAccountRoutes(deps));

  return app;
}
