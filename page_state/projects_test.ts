import assert from "node:assert/strict";
import { isProjectPath, projectHref } from "./projects.ts";

Deno.test("project URLs: each page's link, and every one of them is a project's page", () => {
  assert.equal(projectHref("p1", "setup"), "/projects/p1/setup");
  assert.equal(projectHref("p1", "settings"), "/projects/p1/settings");
  assert.equal(projectHref("a/b?c", "setup"), "/projects/a%2Fb%3Fc/setup");
  for (const page of ["setup", "settings"] as const) {
    assert.equal(isProjectPath(new URL(projectHref("p1", page), "http://x").pathname), true);
  }
});

Deno.test("project URLs: other pages are not a project's", () => {
  for (const path of ["/projects", "/project/p1/setup", "/settings/organization/projects", "/"]) {
    assert.equal(isProjectPath(path), false, path);
  }
});
