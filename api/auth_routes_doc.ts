// Route docs of /api/auth: sign-in methods, the email one-time code and sign-out. Mutations here
// must come from the app's own origin (403 otherwise), as on every cookie-authenticated sub-app.
import { otpSendBody, otpVerifyBody, signedIn, signInMethods, signoutBody } from "./auth_schema.ts";
import { describeRoute } from "./openapi_route.ts";

const COOKIE = { "Set-Cookie": "the session cookie, playhead_session" };

export const authRoutes = [
  describeRoute({
    method: "get",
    path: "/api/auth/methods",
    summary: "Sign-in methods this service offers",
    tag: "auth",
    auth: "none",
    responses: { 200: { description: "methods", body: signInMethods } },
  }),
  describeRoute({
    method: "post",
    path: "/api/auth/otp/send",
    summary: "Email a one-time sign-in code",
    description: "6 digits, valid 10 minutes; 5 sends per email per UTC day, 60 s apart.",
    tag: "auth",
    auth: "none",
    body: otpSendBody,
    responses: { 204: { description: "sent" } },
    errors: [403, 429, 503],
  }),
  describeRoute({
    method: "post",
    path: "/api/auth/otp/verify",
    summary: "Sign in with a one-time code",
    description: "A new email creates the user and their workspace (`name` names them).",
    tag: "auth",
    auth: "none",
    body: otpVerifyBody,
    responses: { 200: { description: "signed in", body: signedIn, headers: COOKIE } },
    errors: [401, 403],
  }),
  describeRoute({
    method: "post",
    path: "/api/auth/signout",
    summary: "Sign out",
    description: "Clears the cookie; `everywhere` also ends every other session of the user.",
    tag: "auth",
    auth: "none",
    body: signoutBody,
    bodyOptional: true,
    responses: { 204: { description: "signed out", headers: COOKIE } },
    errors: [403],
  }),
];
