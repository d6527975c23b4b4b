// The message for a sign-in or account-linking failure that came back as `?error=<code>`
// (page_state/sign_in.ts).
import { readSignInError } from "@/page_state/sign_in.ts";

const MESSAGES: Record<string, string> = {
  oauth_unavailable: "That sign-in provider is not available.",
  oauth_denied: "The provider did not allow the sign-in.",
  oauth_failed: "The provider could not be reached. Try again.",
  email_unverified:
    "The provider has not verified that email address, so it cannot be linked to an existing account.",
  account_conflict: "That provider account is already linked to another user.",
};

export function SignInError({ url }: { url: URL }) {
  const code = readSignInError(url);
  if (!code) return null;
  const message = Object.hasOwn(MESSAGES, code) ? MESSAGES[code] : "The sign-in did not work.";
  return <p class="notice notice-error" role="alert">{message}</p>;
}
