// /api/auth: sign-in methods, the email one-time code flow and sign-out (docs/decisions.md "Sign-in
// and accounts"). OAuth sign-in and the passkey ceremonies are mounted here so they see the viewer.
// Mutations must come from the app's own origin (403), as on every cookie-authenticated sub-app.
import type { Hono } from "hono";
import type { AppDeps } from "@/core/deps.ts";
import { signInMethods } from "@/core/auth/methods.ts";
import { sendOtp, verifyOtp } from "@/core/auth/otp.ts";
import { OTP_POLICY_SUMMARY } from "@/core/auth/otp_policy.ts";
import { revokeSessions } from "@/core/auth/sign_in_session.ts";
import { signOut, startSession } from "@/http/session.ts";
import {
  otpSendBody,
  otpVerifyBody,
  signedIn,
  signInMethods as methodsSchema,
  signoutBody,
} from "@/core/auth/schema.ts";
import { dashboardApp } from "@/api/dashboard.ts";
import type { ApiEnv } from "@/api/env.ts";
import { describe, type RouteDescription } from "@/api/openapi/route.ts";
import { otpSendThrottle } from "@/api/throttle.ts";
import { body } from "@/api/validate.ts";
import { oauthRoutes } from "./oauth.ts";
import { passkeyAuthRoutes } from "./passkeys.ts";

const doc = (route: Omit<RouteDescription, "tag" | "auth">) =>
  describe({ tag: "auth", auth: "none", ...route });
const COOKIE = { "Set-Cookie": "the session cookie, playhead_session" };

export function authRoutes(deps: AppDeps): Hono<ApiEnv> {
  const app = dashboardApp(deps);

  app.get(
    "/methods",
    doc({
      summary: "Sign-in methods this service offers",
      responses: { 200: { description: "methods", body: methodsSchema } },
    }),
    (c) => c.json(signInMethods(deps.config)),
  );
  app.route("/", oauthRoutes(deps));
  app.route("/passkeys", passkeyAuthRoutes(deps));

  app.post(
    "/otp/send",
    doc({
      summary: "Email a one-time sign-in code",
      description: OTP_POLICY_SUMMARY,
      responses: { 204: { description: "sent" } },
      errors: [403, 429, 503],
    }),
    otpSendThrottle(deps),
    body(otpSendBody),
    async (c) => {
      await sendOtp(deps, c.req.valid("json").email, { requestId: c.var.requestId });
      return c.body(null, 204);
    },
  );

  app.post(
    "/otp/verify",
    doc({
      summary: "Sign in with a one-time code",
      description: "A new email creates the user and their workspace (`name` names them).",
      responses: { 200: { description: "signed in", body: signedIn, headers: COOKIE } },
      errors: [401, 403],
    }),
    body(otpVerifyBody),
    async (c) => {
      const { userId } = await verifyOtp(deps, c.req.valid("json"));
      c.header("Set-Cookie", await startSession(deps, userId));
      return c.json({ redirectTo: "/" });
    },
  );

  app.post(
    "/signout",
    doc({
      summary: "Sign out",
      description:
        "Revokes this session's token and clears the cookie; `everywhere` also ends every other session of the user.",
      responses: { 204: { description: "signed out", headers: COOKIE } },
      errors: [403],
    }),
    body(signoutBody, { optional: true }),
    async (c) => {
      const viewer = c.var.viewer;
      if (c.req.valid("json").everywhere && viewer) await revokeSessions(deps, viewer.userId);
      c.header("Set-Cookie", await signOut(deps, c.req.header("cookie") ?? null));
      return c.body(null, 204);
    },
  );

  return app;
}
