// /api/auth: sign-in methods, the email one-time code flow and sign-out (DECISIONS "Sign-in and
// accounts"). OAuth sign-in lives in api/oauth.ts, mounted here so it sees the viewer.
import type { Hono } from "hono";
import type { AppDeps } from "../app_deps.ts";
import { signInMethods } from "../core/sign_in_methods.ts";
import { sendOtp, verifyOtp } from "../core/otp.ts";
import { endSession, revokeSessions, startSession } from "../core/sessions.ts";
import { dashboardApp } from "./dashboard.ts";
import { oauthRoutes } from "./oauth.ts";
import { passkeyAuthRoutes } from "./passkey_auth.ts";
import type { ApiEnv } from "./env.ts";
import {
  otpSendBody as sendSchema,
  otpVerifyBody as verifySchema,
  signoutBody as signoutSchema,
} from "./auth_schema.ts";
import { parseWith } from "./validate.ts";

export function authRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);

  app.get("/methods", (c) => c.json(signInMethods(deps.config)));
  app.route("/", oauthRoutes(deps));
  app.route("/passkeys", passkeyAuthRoutes(deps));

  app.post("/otp/send", async (c) => {
    const input = parseWith(sendSchema, await c.req.json().catch(() => null), "body");
    await sendOtp(deps, input.email, { requestId: c.var.requestId });
    return c.body(null, 204);
  });

  app.post("/otp/verify", async (c) => {
    const input = parseWith(verifySchema, await c.req.json().catch(() => null), "body");
    const { userId } = await verifyOtp(deps, input);
    c.header("Set-Cookie", await startSession(deps, userId));
    return c.json({ redirectTo: "/" });
  });

  app.post("/signout", async (c) => {
    const body = await c.req.json().catch(() => ({}));
    const input = parseWith(signoutSchema, body ?? {}, "body");
    const viewer = c.var.viewer;
    if (input.everywhere && viewer) await revokeSessions(deps, viewer.userId);
    c.header("Set-Cookie", endSession(deps));
    return c.body(null, 204);
  });

  return app;
}
