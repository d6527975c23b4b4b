import assert from "node:assert/strict";
import { landingPath, safeNextPath, signInPath } from "./next_path.ts";

Deno.test("next path: the sign-in link carries the path and query, encoded", () => {
  const url = new URL("http://localhost/settings/organization?done=renamed");
  assert.equal(signInPath(url), "/signin?next=%2Fsettings%2Forganization%3Fdone%3Drenamed");
});

Deno.test("next path: a relative path round-trips; a foreign one falls back to /", () => {
  const back = new URL(signInPath(new URL("http://localhost/invites?x=1")), "http://localhost");
  assert.equal(safeNextPath(back.searchParams.get("next")), "/invites?x=1");
  for (const raw of ["//evil.test/x", "/\\evil.test", "/\t/evil.test", "https://evil.test/"]) {
    assert.equal(safeNextPath(raw), "/", raw);
  }
});

Deno.test("next path: sign-in lands on Sessions unless a page was asked for", () => {
  assert.equal(landingPath(null), "/sessions");
  assert.equal(landingPath("//evil.test/x"), "/sessions");
  assert.equal(landingPath("/users?statuses=ONLINE"), "/users?statuses=ONLINE");
});
