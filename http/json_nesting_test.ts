import assert from "node:assert/strict";
import { MAX_JSON_NESTING, nestsDeeperThan } from "./json_nesting.ts";

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
