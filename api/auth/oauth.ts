// /api/auth/signin/{provider} and /api/auth/callback/{provider}: OAuth sign-in and explicit linking
// (docs/decisions.md "Sign-in and accounts"), redirects to the provider and back. Mounted inside
// the auth sub-app, which sets the viewer.
import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import { authError } from "@/core/errors.ts";
import { beginOAuth, completeOAuth } from "@/core/auth/oauth/flow.ts";
import { oauthStateCookie, readOAuthStateCookie } from "@/http/cookies.ts";
import { startSession } from "@/http/session.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { describe } from "@/api/openapi/route.ts";
import { query } from "@/api/validate.ts";

const PROVIDER = { provider: "github or google (unknown or unconfigured → 404)" };
const signInQuery = z.object({
  callbackUrl: z.string().optional().meta({ description: "same-origin path to return to" }),
  link: z.literal("1").optional(),
});

export function oauthRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const appUrl = deps.config.appUrl;

  app.get(
    "/signin/:provider",
    describe({
      summary: "Start OAuth sign-in (or, with `link=1` and a session, link the provider)",
      tag: "auth",
      auth: "none",
      params: PROVIDER,
      responses: {
        302: {
          description: "to the provider (state cookie set)",
          headers: { Location: "the provider's authorisation URL" },
        },
      },
    }),
    noStore(),
    query(signInQuery),
    async (c) => {
      const { link, callbackUrl } = c.req.valid("query");
      const viewer = c.var.viewer;
      if (link && !viewer) throw authError("sign in before linking an account");
      const { location, state } = await beginOAuth(deps, c.req.param("provider"), {
        callbackUrl,
        linkUserId: link ? viewer!.userId : null,
      });
      if (state) c.header("Set-Cookie", oauthStateCookie(appUrl, state));
      return c.redirect(location, 302);
    },
  );

  app.get(
    "/callback/:provider",
    describe({
      summary: "The provider's redirect back: signs in or links, then redirects",
      tag: "auth",
      auth: "none",
      params: PROVIDER,
      responses: {
        302: {
          description: "to the callback path, or to sign-in with an error code",
          headers: { Location: "a same-origin path", "Set-Cookie": "the session cookie" },
        },
      },
      errors: [400, 401],
    }),
    noStore(),
    async (c) => {
      const outcome = await completeOAuth(deps, c.req.param("provider"), {
        query: new URL(c.req.url).searchParams,
        cookieState: readOAuthStateCookie(appUrl, c.req.header("cookie") ?? null),
        viewerId: c.var.viewer?.userId ?? null,
      });
      c.header("Set-Cookie", oauthStateCookie(appUrl, null), { append: true });
      if (outcome.kind === "signed_in") {
        c.header("Set-Cookie", await startSession(deps, outcome.userId), { append: true });
      }
      return c.redirect(outcome.location, 302);
    },
  );

  return app;
}
