// Wire schemas of /api/auth (DECISIONS "Sign-in and accounts"): the one-time code flow and
// sign-out as the handlers parse them, and the answers of the sign-in endpoints.
import { z } from "zod";

const email = z.string().trim().toLowerCase().pipe(z.email()).pipe(z.string().max(254));

export const otpSendBody = z.object({ email });
export const otpVerifyBody = z.object({
  email,
  code: z.string().trim().regex(/^\d{6}$/, "must be 6 digits"),
  name: z.string().trim().min(1).max(80).optional(),
});
export const signoutBody = z.object({
  everywhere: z.boolean().optional().meta({ description: "also revoke every other session" }),
});

export const signInMethods = z.strictObject({
  oauth: z.array(z.strictObject({ id: z.enum(["github", "google"]), name: z.string() })),
  email: z.boolean(),
  passkey: z.literal(true),
});

/** Where the browser goes once signed in (the cookie comes with it). */
export const signedIn = z.strictObject({ redirectTo: z.string() });
