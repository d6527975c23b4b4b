import assert from "node:assert/strict";
import { buildRouteTable, matchRoute, middlewaresForUnmatched, toPattern } from "./router.ts";
import manifest from "./testdata/fresh.gen.ts";

Deno.test("router: file paths become URL patterns", () => {
  assert.equal(toPattern("index"), "/");
  assert.equal(toPattern("greet/[name]"), "/greet/:name");
  assert.equal(toPattern("docs/[...rest]"), "/docs/:rest*");
  assert.equal(toPattern("(marketing)/about"), "/about");
  assert.equal(toPattern("admin/settings/index"), "/admin/settings");
});

Deno.test("router: static routes sort before dynamic ones, catch-alls last", () => {
  const table = buildRouteTable(manifest);
  const patterns = table.routes.map((r) => r.pattern);
  assert.ok(patterns.indexOf("/greet/world") < patterns.indexOf("/greet/:name"));
  assert.ok(patterns.indexOf("/greet/:name") < patterns.indexOf("/docs/:rest*"));
  assert.equal(matchRoute(table, "/greet/world")?.route.pattern, "/greet/world");
  assert.deepEqual(matchRoute(table, "/greet/Bob")?.params, { name: "Bob" });
});

Deno.test("router: special files are not routes", () => {
  const table = buildRouteTable(manifest);
  assert.equal(matchRoute(table, "/_app"), null);
  assert.equal(matchRoute(table, "/_middleware"), null);
  assert.ok(table.app && table.notFound && table.error);
});

Deno.test("router: routes carry the middleware of the folders above them", () => {
  const table = buildRouteTable(manifest);
  assert.equal(matchRoute(table, "/admin/settings/x")?.route.middlewares.length, 3);
  assert.equal(matchRoute(table, "/about")?.route.middlewares.length, 1);
  assert.equal(middlewaresForUnmatched(table, "/admin/nothing").length, 3);
  assert.equal(middlewaresForUnmatched(table, "/administrator").length, 1);
});
