// Which sign-in methods the sign-in page offers (GET /api/auth/methods).
import type { z } from "zod";
import type { Config } from "@/config.ts";
import type { signInMethods as methodsSchema } from "./schema.ts";

export type SignInMethods = z.output<typeof methodsSchema>;

/** Email code works with SMTP configured, and outside production also without (code logged). */
export function emailCodeAvailable(config: Config): boolean {
  return config.mail !== null || config.nodeEnv !== "production";
}

export function signInMethods(config: Config): SignInMethods {
  const oauth: SignInMethods["oauth"] = [];
  if (config.oauthA) oauth.push({ id: "github", name: "GitHub" });
  if (config.oauthB) oauth.push({ id: "google", name: "Google" });
  return { oauth, email: emailCodeAvailable(config), passkey: true };
}
