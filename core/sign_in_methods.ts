// Which sign-in methods the sign-in page offers (GET /api/auth/methods).
import type { Config } from "../config.ts";

export interface SignInMethods {
  oauth: Array<{ id: string; name: string }>;
  email: boolean;
  passkey: true;
}

/** Email code works with SMTP configured, and outside production also without (code logged). */
export function emailCodeAvailable(config: Config): boolean {
  return config.mail !== null || config.nodeEnv !== "production";
}

export function signInMethods(config: Config): SignInMethods {
  const oauth = [];
  if (config.oauthA) oauth.push({ id: "github", name: "GitHub" });
  if (config.oauthB) oauth.push({ id: "google", name: "Google" });
  return { oauth, email: emailCodeAvailable(config), passkey: true };
}
