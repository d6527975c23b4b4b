// Wire schemas of /api/auth (docs/decisions.md "Sign-in and accounts"): the one-time code flow and
// sign-out as the handlers parse them, and the answers of the sign-in endpoints.
import { z } from "zod";
import { nameSchema } from "@/core/schema.ts";
import { OTP_CODE_LENGTH } from "./otp_policy.ts";

const email = z.string().trim().toLowerCase().pipe(z.email()).pipe(z.string().max(254));

export const otpSendBody = z.object({ email });
export const otpVerifyBody = z.object({
  email,
  code: z.string().trim()
    .regex(new RegExp(`^\\d{${OTP_CODE_LENGTH}}$`), `must be ${OTP_CODE_LENGTH} digits`),
  name: nameSchema.optional(),
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
