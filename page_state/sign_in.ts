// The `?error=<code>` a failed sign-in or account link comes back with, as the sign-in and profile
// pages read it. Core's OAuth flow writes it on the redirect it answers with
// (core/auth/safe_redirect.ts `withErrorCode`): core sits below the pages and cannot link to one.
import { ERROR_PARAM } from "@/core/auth/safe_redirect.ts";

/** The failure's code: null when absent or empty (an unknown code is the page's to explain). */
export function readSignInError(url: URL): string | null {
  return url.searchParams.get(ERROR_PARAM) || null;
}
