// The way back after sign-in never leaves the app's origin, whatever form the path
// takes before normalisation ("/./", "/../", "%2e", backslashes, encodings).
import assert from "node:assert/strict";
import { safeCallbackPath } from "@/core/auth/safe_redirect.ts";
import { signedInUser } from "@/tests/helpers/auth.ts";
import { oauthTestApp, signInWith } from "@/tests/helpers/oauth.ts";
import { createPagesApp, page } from "@/tests/helpers/pages.ts";

/** Each as the browser sends it in a query string (already percent-encoded where it matters). */
export const FOREIGN_QUERY_VALUES = [
  "%2F.%2F%2Fevil.example%2Fphish",
  "/.//evil.example/phish",
  "/..//evil.example/phish",
  "/%2e//evil.example/phish",
  "/%2E%2E//evil.example/phish",
  "/x/../..//evil.example/phish",
  "/x/..//evil.example/phish",
  "/././/evil.example",
  "%2F%2Fevil.example",
  "//evil.example",
  "///evil.example",
  "/\\evil.example",
  "%2F%5Cevil.example",
  "/.\\/evil.example",
  "/%2e\\evil.example",
  "\\\\evil.example",
  "%5C%5Cevil.example",
  "/%09/evil.example",
  "/%0a/evil.example",
  "/%0d%0a/evil.example",
  "https://evil.example/",
  "https:%2F%2Fevil.example",
  "http:/evil.example",
  "javascript:alert(1)",
  "evil.example",
];

function decoded(value: string): string {
  return new URLSearchParams(`v=${value}`).get("v")!;
}

/** Where a browser on the app's origin lands after following `location`. */
function landsOn(location: string): string {
  return new URL(location, "http://localhost:3000").origin;
}

Deno.test("safeCallbackPath: every foreign form, once decoded, becomes /", () => {
  for (const value of FOREIGN_QUERY_VALUES) {
    const path = safeCallbackPath(decoded(value));
    assert.equal(path, "/", value);
  }
});

Deno.test("safeCallbackPath: same-origin paths that merely contain dots or encodings are kept", () => {
  assert.equal(safeCallbackPath("/a/./b/../c?x=1#y"), "/a/c?x=1#y");
  assert.equal(safeCallbackPath("/%2F%2Fnot-a-host"), "/%2F%2Fnot-a-host");
  assert.equal(landsOn(safeCallbackPath("/%2F%2Fnot-a-host")), "http://localhost:3000");
});

Deno.test("sign-in page: a signed-in visitor is never sent off the origin by next", async () => {
  await using t = await createPagesApp();
  const { cookie } = await signedInUser(t);
  for (const value of FOREIGN_QUERY_VALUES) {
    const res = await page(t, `/signin?next=${value}`, { cookie });
    assert.equal(res.status, 303, value);
    // A refused next lands where every sign-in lands: Sessions.
    assert.equal(res.headers.get("location"), "/sessions", value);
  }
  const kept = await page(t, "/signin?next=%2Fsettings%2Fprofile%3Ftab%3D1", { cookie });
  assert.equal(kept.headers.get("location"), "/settings/profile?tab=1");
});

Deno.test("oauth: a callbackUrl in any foreign form lands on / after sign-in", async () => {
  await using t = await oauthTestApp();
  for (const value of FOREIGN_QUERY_VALUES) {
    const { location } = await signInWith(t.browser(), "github", `?callbackUrl=${value}`);
    assert.equal(location, "/", value);
  }
});
