import assert from "node:assert/strict";
import { safeCallbackPath, withErrorCode } from "./safe_redirect.ts";

Deno.test("safeCallbackPath: same-origin relative paths pass, with their query and fragment", () => {
  assert.equal(safeCallbackPath("/sessions?range=7d#top"), "/sessions?range=7d#top");
  assert.equal(safeCallbackPath("/a/../b"), "/b");
});

Deno.test("safeCallbackPath: anything that could leave the origin becomes /", () => {
  for (
    const value of [
      null,
      undefined,
      "",
      "sessions",
      "https://evil.test/",
      "//evil.test",
      "/\\evil.test",
      "/\tevil",
      "javascript:alert(1)",
      `/${"a".repeat(2001)}`,
    ]
  ) {
    assert.equal(safeCallbackPath(value), "/", String(value));
  }
});

Deno.test("withErrorCode: adds error to the query", () => {
  assert.equal(withErrorCode("/signin", "oauth_denied"), "/signin?error=oauth_denied");
  assert.equal(withErrorCode("/settings?tab=a", "x"), "/settings?tab=a&error=x");
});
