import assert from "node:assert/strict";
import { CUT_MARK, cutText } from "./limits.ts";

Deno.test("limits: a text of the bound or less is kept; one over it is cut to the bound with the mark", () => {
  assert.equal(cutText("abcd", 5), "abcd");
  assert.equal(cutText("abcde", 5), "abcde");
  assert.equal(cutText("abcdef", 5), "abcd" + CUT_MARK);
  assert.equal(cutText("abcdef", 5).length, 5);
});

Deno.test("limits: a cut never splits a surrogate pair", () => {
  // "ab" + 😀 (two units) + "cd": a cut at 4 would end after the emoji's first half.
  assert.equal(cutText("abc😀de", 5), "abc" + CUT_MARK);
  assert.equal(cutText("ab😀cde", 5), "ab😀" + CUT_MARK);
  assert.ok(cutText("abc😀de", 5).isWellFormed());
});
