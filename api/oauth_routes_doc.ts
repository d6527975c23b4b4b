// Route docs of OAuth sign-in and linking (api/oauth.ts): redirects to the provider and back.
import { z } from "zod";
import { describeRoute } from "./openapi_route.ts";

const PROVIDER = { provider: "github or google (unknown or unconfigured → 404)" };

export const oauthRoutes = [
  describeRoute({
    method: "get",
    path: "/api/auth/signin/{provider}",
    summary: "Start OAuth sign-in (or, with `link=1` and a session, link the provider)",
    tag: "auth",
    auth: "none",
    params: PROVIDER,
    query: z.object({
      callbackUrl: z.string().optional().meta({ description: "same-origin path to return to" }),
      link: z.literal("1").optional(),
    }),
    noStore: true,
    responses: {
      302: {
        description: "to the provider (state cookie set)",
        headers: { Location: "the provider's authorisation URL" },
      },
    },
  }),
  describeRoute({
    method: "get",
    path: "/api/auth/callback/{provider}",
    summary: "The provider's redirect back: signs in or links, then redirects",
    tag: "auth",
    auth: "none",
    params: PROVIDER,
    noStore: true,
    responses: {
      302: {
        description: "to the callback path, or to sign-in with an error code",
        headers: { Location: "a same-origin path", "Set-Cookie": "the session cookie" },
      },
    },
    errors: [400, 401],
  }),
];
