import assert from "node:assert/strict";
import { globPattern, pathRule } from "./url_rules.ts";

Deno.test("url rules: * stays in a segment, ** crosses them, ? is one character", () => {
  const matches = (glob: string, path: string) => globPattern(glob).test(path);
  assert.ok(matches("/admin/*", "/admin/users"));
  assert.ok(!matches("/admin/*", "/admin/users/7"));
  assert.ok(matches("/admin/**", "/admin/users/7"));
  assert.ok(matches("/a/**/z", "/a/b/c/z"));
  assert.ok(matches("/a**", "/ab/c"));
  assert.ok(matches("/admin/**", "/admin"));
  assert.ok(!matches("/admin/**", "/administrator"));
  assert.ok(matches("/a?c", "/abc"));
  assert.ok(!matches("/a?c", "/a/c"));
  assert.ok(matches("/p.html", "/p.html"));
  assert.ok(!matches("/p.html", "/pxhtml")); // the dot is literal
  assert.ok(!matches("/shop", "/shop/cart")); // whole path
});

Deno.test("url rules: blocked wins; every non-empty allow list must match", () => {
  const rule = pathRule(["/admin/**"], [["/shop/**", "/admin/**"], []]);
  assert.equal(rule("/shop/cart"), true);
  assert.equal(rule("/admin/x"), false);
  assert.equal(rule("/blog"), false);
  assert.equal(pathRule([], [])("/anything"), true);
  const narrowed = pathRule([], [["/shop/**"], ["/shop/cart"]]);
  assert.equal(narrowed("/shop/cart"), true);
  assert.equal(narrowed("/shop/list"), false);
});
