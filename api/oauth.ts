// /api/auth/signin/{provider} and /api/auth/callback/{provider}: OAuth sign-in and explicit
// linking (DECISIONS "Sign-in and accounts"). Mounted inside the auth sub-app, which sets the viewer.
import { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { authError } from "../core/errors.ts";
import { oauthStateCookie, readOAuthStateCookie } from "../core/oauth_cookie.ts";
import { beginOAuth, completeOAuth } from "../core/oauth_flow.ts";
import { startSession } from "../core/sessions.ts";
import type { ApiEnv } from "./env.ts";

export function oauthRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const appUrl = deps.config.appUrl;

  app.get("/signin/:provider", async (c) => {
    const link = c.req.query("link") === "1";
    const viewer = c.var.viewer;
    if (link && !viewer) throw authError("sign in before linking an account");
    const { location, state } = await beginOAuth(deps, c.req.param("provider"), {
      callbackUrl: c.req.query("callbackUrl"),
      linkUserId: link ? viewer!.userId : null,
    });
    if (state) c.header("Set-Cookie", oauthStateCookie(appUrl, state));
    c.header("Cache-Control", "no-store");
    return c.redirect(location, 302);
  });

  app.get("/callback/:provider", async (c) => {
    const outcome = await completeOAuth(deps, c.req.param("provider"), {
      query: new URL(c.req.url).searchParams,
      cookieState: readOAuthStateCookie(appUrl, c.req.header("cookie") ?? null),
      viewerId: c.var.viewer?.userId ?? null,
    });
    c.header("Set-Cookie", oauthStateCookie(appUrl, null), { append: true });
    if (outcome.kind === "signed_in") {
      c.header("Set-Cookie", await startSession(deps, outcome.userId), { append: true });
    }
    c.header("Cache-Control", "no-store");
    return c.redirect(outcome.location, 302);
  });

  return app;
}
