import assert from "node:assert/strict";
import { safeNextPath, signInPath } from "./next_path.ts";

Deno.test("next path: same-origin relative paths are kept with their query", () => {
  assert.equal(safeNextPath("/settings/profile"), "/settings/profile");
  assert.equal(safeNextPath("/invites?x=1#top"), "/invites?x=1#top");
});

Deno.test("next path: anything that could leave the origin falls back", () => {
  for (
    const raw of [
      null,
      "",
      "settings",
      "https://evil.test/",
      "//evil.test/x",
      "/\\evil.test",
      "/\t/evil.test",
      "javascript:alert(1)",
    ]
  ) {
    assert.equal(safeNextPath(raw), "/", String(raw));
  }
  assert.equal(safeNextPath("//evil.test", "/home"), "/home");
});

Deno.test("next path: the sign-in link carries the path and query, encoded", () => {
  const url = new URL("http://localhost/settings/organization?done=renamed");
  assert.equal(signInPath(url), "/signin?next=%2Fsettings%2Forganization%3Fdone%3Drenamed");
});
