import assert from "node:assert/strict";
import fc from "fast-check";
import { compileGlob, matchGlob, pathRule, type StepCount } from "./url_rules.ts";

const matches = (glob: string, path: string) => matchGlob(compileGlob(glob), path);

Deno.test("url rules: * stays in a segment, ** crosses them, ? is one character", () => {
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

Deno.test("url rules: stars match nothing too; a trailing /** takes the folder, not its siblings", () => {
  assert.ok(matches("/a/*", "/a/"));
  assert.ok(matches("/a*b", "/ab"));
  assert.ok(matches("/a/**/z", "/a//z"));
  assert.ok(!matches("/a/**/z", "/a/z")); // the two slashes around ** stay
  assert.ok(matches("/**", "/"));
  assert.ok(matches("/**", ""));
  assert.ok(matches("/x/*/**", "/x/y"));
  assert.ok(matches("/x/*/**", "/x/y/z/w"));
  assert.ok(!matches("/x/*/**", "/xy"));
  assert.ok(!matches("/a?", "/a"));
  assert.ok(matches("", ""));
  assert.ok(!matches("", "/"));
});

Deno.test("url rules: a run of stars is one ** (`***` matches as `**` does)", () => {
  assert.deepEqual(compileGlob("/a/***"), compileGlob("/a/**"));
  assert.deepEqual(compileGlob("/a****b"), compileGlob("/a**b"));
  assert.ok(matches("/a/***", "/a"));
  assert.ok(matches("/a***z", "/a/b/z"));
});

Deno.test("url rules: a 200-character glob of many stars against a long path is one pass, not backtracking", () => {
  // `/*a*a*a…*b`: a regular expression of it backtracks through every split of the a's.
  const glob = "/" + "*a".repeat(99) + "b";
  assert.equal(glob.length, 200);
  const path = "/" + "a".repeat(2_000);
  const count: StepCount = { steps: 0 };
  const compiled = compileGlob(glob);
  assert.equal(matchGlob(compiled, path, count), false);
  // Each character of the path visits each glob position at most once.
  assert.ok(count.steps <= path.length * (compiled.parts.length + 1), `${count.steps} steps`);
  assert.ok(count.steps > 0);
  const yes: StepCount = { steps: 0 };
  assert.equal(matchGlob(compiled, path + "b", yes), true);
  assert.ok(yes.steps <= (path.length + 1) * (compiled.parts.length + 1), `${yes.steps} steps`);
  // `**` everywhere, and a path of slashes, stays within the same bound.
  const anyGlob = compileGlob("/" + "**/".repeat(60) + "x");
  const slashes = "/".repeat(3_000);
  const any: StepCount = { steps: 0 };
  assert.equal(matchGlob(anyGlob, slashes, any), false);
  assert.ok(any.steps <= slashes.length * (anyGlob.parts.length + 1), `${any.steps} steps`);
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

/** The regular expression globs were matched with before (kept here as the reference). */
function regexOf(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*" && glob[i + 1] === "*") {
      i++;
      if (source.endsWith("/") && i === glob.length - 1) source = source.slice(0, -1) + "(/.*)?";
      else source += ".*";
    } else if (c === "*") source += "[^/]*";
    else if (c === "?") source += "[^/]";
    else source += c.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}

Deno.test("url rules: every short glob matches as its regular expression did (no run of 3 stars)", () => {
  const glob = fc.array(fc.constantFrom("/", "a", "b", ".", "*", "**", "?"), { maxLength: 7 })
    .map((parts) => parts.join("")).filter((g) => !g.includes("***"));
  const path = fc.array(fc.constantFrom("/", "a", "b", "."), { maxLength: 8 })
    .map((parts) => parts.join(""));
  fc.assert(
    fc.property(glob, path, (g, p) => matches(g, p) === regexOf(g).test(p)),
    { numRuns: 20_000, seed: 40_14 },
  );
});
