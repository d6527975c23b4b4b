import assert from "node:assert/strict";
import { withErrorCode } from "@/core/auth/safe_redirect.ts";
import { readSignInError } from "./sign_in.ts";

const at = (path: string) => new URL(`http://x${path}`);

Deno.test("sign-in URL: the error core's redirect writes is the one the page reads", () => {
  assert.equal(readSignInError(at(withErrorCode("/signin", "oauth_denied"))), "oauth_denied");
  const settings = at(withErrorCode("/settings/profile?tab=a", "account_conflict"));
  assert.equal(readSignInError(settings), "account_conflict");
  assert.equal(settings.searchParams.get("tab"), "a");
  // An unknown code is read as given: the page says the sign-in did not work.
  assert.equal(readSignInError(at("/signin?error=nonsense")), "nonsense");
});

Deno.test("sign-in URL: no error, or an empty one, reads as none", () => {
  assert.equal(readSignInError(at("/signin")), null);
  assert.equal(readSignInError(at("/signin?error=")), null);
  assert.equal(readSignInError(at("/signin?errors=oauth_denied")), null);
});
