// /api/auth/passkeys: registering a passkey (signed in) and signing in with one (docs/decisions.md
// "Sign-in and accounts"). Mounted inside the auth sub-app, whose middleware checks the origin and
// resolves the viewer. Each options call sets the ceremony's challenge cookie; verify clears it.
import { type Context, Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "@/core/deps.ts";
import {
  authenticationOptions,
  verifyAuthentication,
} from "@/core/auth/passkeys/authentication.ts";
import { registrationOptions, verifyRegistration } from "@/core/auth/passkeys/registration.ts";
import { authenticateVerifyBody, registerVerifyBody } from "@/core/auth/passkeys/schema.ts";
import { signedIn } from "@/core/auth/schema.ts";
import { passkey } from "@/core/account/schema.ts";
import { challengeCookie, readChallengeCookie } from "@/http/cookies.ts";
import { startSession } from "@/http/session.ts";
import { requireSignIn, requireViewer } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { noStore } from "@/api/no_store.ts";
import { passkeyOptionsThrottle } from "@/api/throttle.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { body } from "@/api/validate.ts";

const doc = (route: Omit<RouteDescription, "tag">) => describe({ tag: "passkeys", ...route });
const CHALLENGE = { "Set-Cookie": "the ceremony's challenge cookie" };

/** What @simplewebauthn/server generates; passed to the browser as is. */
const creationOptions = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ type: z.string(), alg: z.number() })),
}).meta({ description: "PublicKeyCredentialCreationOptionsJSON" });
const requestOptions = z.looseObject({
  challenge: z.string(),
  rpId: z.string().optional(),
}).meta({ description: "PublicKeyCredentialRequestOptionsJSON" });

export function passkeyAuthRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const appUrl = deps.config.appUrl;
  const setChallenge = (id: string | null) => challengeCookie(appUrl, id);
  const challengeOf = (c: Context<ApiEnv>) => readChallengeCookie(c.req.header("cookie") ?? null);

  app.post(
    "/register/options",
    doc({
      summary: "Begin registering a passkey for the signed-in user",
      auth: "cookie",
      responses: {
        200: { description: "creation options", body: creationOptions, headers: CHALLENGE },
      },
    }),
    noStore(),
    async (c) => {
      const { options, challengeId } = await registrationOptions(deps, requireViewer(c));
      c.header("Set-Cookie", setChallenge(challengeId));
      return c.json(options);
    },
  );

  app.post(
    "/register/verify",
    doc({
      summary: "Finish registering: store the passkey",
      auth: "cookie",
      responses: { 201: { description: "the new passkey", body: passkey } },
      errors: [409],
    }),
    requireSignIn(),
    body(registerVerifyBody),
    async (c) => {
      const viewer = requireViewer(c);
      const created = await verifyRegistration(deps, viewer, {
        ...c.req.valid("json"),
        userAgent: c.req.header("user-agent") ?? null,
        challengeId: challengeOf(c),
      });
      c.header("Set-Cookie", setChallenge(null));
      return c.json(created, 201);
    },
  );

  app.post(
    "/authenticate/options",
    doc({
      summary: "Begin signing in with a passkey",
      auth: "none",
      responses: {
        200: { description: "request options", body: requestOptions, headers: CHALLENGE },
      },
      errors: [403, 429],
    }),
    passkeyOptionsThrottle(deps),
    noStore(),
    async (c) => {
      const { options, challengeId } = await authenticationOptions(deps);
      c.header("Set-Cookie", setChallenge(challengeId));
      return c.json(options);
    },
  );

  app.post(
    "/authenticate/verify",
    doc({
      summary: "Finish signing in with a passkey",
      auth: "none",
      responses: {
        200: {
          description: "signed in",
          body: signedIn,
          headers: { "Set-Cookie": "the session cookie" },
        },
      },
      errors: [401, 403],
    }),
    body(authenticateVerifyBody),
    async (c) => {
      const { userId } = await verifyAuthentication(deps, {
        ...c.req.valid("json"),
        challengeId: challengeOf(c),
      });
      c.header("Set-Cookie", setChallenge(null));
      c.header("Set-Cookie", await startSession(deps, userId), { append: true });
      return c.json({ redirectTo: "/" });
    },
  );

  return app;
}
