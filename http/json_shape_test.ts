import assert from "node:assert/strict";
import {
  containersOver,
  jsonShapeProblem,
  MAX_JSON_NESTING,
  nestsDeeperThan,
} from "./json_shape.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

Deno.test("json nesting: the limit itself is allowed, one level more is not", () => {
  assert.equal(nestsDeeperThan(bytes(nested(MAX_JSON_NESTING - 1))), false);
  assert.equal(nestsDeeperThan(bytes(nested(MAX_JSON_NESTING))), false);
  assert.equal(nestsDeeperThan(bytes(nested(MAX_JSON_NESTING + 1))), true);
  assert.equal(nestsDeeperThan(bytes(`{"a":${nested(3)}}`), 3), true);
  assert.equal(nestsDeeperThan(bytes(`{"a":${nested(2)}}`), 3), false);
});

Deno.test("json nesting: brackets inside strings, escaped quotes included, do not count", () => {
  assert.equal(nestsDeeperThan(bytes(`["[[[[{{{{"]`), 2), false);
  assert.equal(nestsDeeperThan(bytes(`["a\\"[[[[", "\\\\"]`), 2), false);
  assert.equal(nestsDeeperThan(bytes(`["\\\\", [[1]]]`), 2), true);
});

Deno.test("json nesting: siblings do not add up; only depth counts", () => {
  const wide = "[" + Array.from({ length: 10_000 }, () => nested(5)).join(",") + "]";
  assert.equal(nestsDeeperThan(bytes(wide), 6), false);
  assert.equal(nestsDeeperThan(bytes(wide), 5), true);
});

Deno.test("json shape: arrays and objects are allowed up to one per 12 bytes past the first 65,536", () => {
  assert.equal(containersOver(bytes("[[],{},[]]"), 4), false);
  assert.equal(containersOver(bytes("[[],{},[]]"), 3), true);
  assert.equal(containersOver(bytes('["[[[", {}]'), 2), false);
  // 9.9 MiB of `[],` is refused; a corpus-like density (one per 43 bytes) is not.
  const flood = "[" + "[],".repeat(3_400_000) + "[]]";
  assert.match(jsonShapeProblem(bytes(flood)) ?? "", /more than \d+ arrays and objects/);
  const real = "[" + Array(200_000).fill('{"x":1,"y":22,"id":333,"timeOffset":-4}').join(",") + "]";
  assert.equal(jsonShapeProblem(bytes(real)), null);
  // Small bodies may be dense: 65,536 empty arrays in 200 KB.
  assert.equal(jsonShapeProblem(bytes("[" + "[],".repeat(65_534) + "[]]")), null);
  assert.notEqual(jsonShapeProblem(bytes("[" + "[],".repeat(65_535) + "[]]")), null);
});
