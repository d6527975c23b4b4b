// /api/auth/passkeys: registering a passkey (signed in) and signing in with one (DECISIONS
// "Sign-in and accounts"). Mounted inside the auth sub-app, whose middleware checks the origin and
// resolves the viewer. Each options call sets the ceremony's challenge cookie; verify clears it.
import { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { authenticationOptions, verifyAuthentication } from "../core/passkey_authentication.ts";
import { registrationOptions, verifyRegistration } from "../core/passkey_registration.ts";
import { startSession } from "../core/sessions.ts";
import { challengeCookie } from "../core/webauthn_challenge.ts";
import { requireViewer } from "./dashboard.ts";
import type { ApiEnv } from "./env.ts";
import { authenticateVerifyBody, registerVerifyBody } from "./passkeys_schema.ts";
import { parseWith } from "./validate.ts";

export function passkeyAuthRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = new Hono<ApiEnv>();
  const clearChallenge = () => challengeCookie(deps.config.appUrl, null);

  app.post("/register/options", async (c) => {
    const { options, cookie } = await registrationOptions(deps, requireViewer(c));
    c.header("Set-Cookie", cookie);
    c.header("Cache-Control", "no-store");
    return c.json(options);
  });

  app.post("/register/verify", async (c) => {
    const viewer = requireViewer(c);
    const input = parseWith(registerVerifyBody, await c.req.json().catch(() => null), "body");
    const passkey = await verifyRegistration(deps, viewer, {
      ...input,
      userAgent: c.req.header("user-agent") ?? null,
      cookieHeader: c.req.header("cookie") ?? null,
    });
    c.header("Set-Cookie", clearChallenge());
    return c.json(passkey, 201);
  });

  app.post("/authenticate/options", async (c) => {
    const { options, cookie } = await authenticationOptions(deps);
    c.header("Set-Cookie", cookie);
    c.header("Cache-Control", "no-store");
    return c.json(options);
  });

  app.post("/authenticate/verify", async (c) => {
    const input = parseWith(authenticateVerifyBody, await c.req.json().catch(() => null), "body");
    const { userId } = await verifyAuthentication(deps, {
      ...input,
      cookieHeader: c.req.header("cookie") ?? null,
    });
    c.header("Set-Cookie", clearChallenge());
    c.header("Set-Cookie", await startSession(deps, userId), { append: true });
    return c.json({ redirectTo: "/" });
  });

  return app;
}
