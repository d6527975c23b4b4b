import assert from "node:assert/strict";
import { isCuid } from "@paralleldrive/cuid2";
import { newRowId } from "./ids.ts";

Deno.test("ids: cuid-shaped, lowercase base 36 starting with a letter, and unique", () => {
  const ids = new Set(Array.from({ length: 10_000 }, newRowId));
  assert.equal(ids.size, 10_000);
  for (const id of ids) {
    assert.match(id, /^[a-z][0-9a-z]{24}$/);
    assert.ok(isCuid(id), id);
  }
});

Deno.test("ids: every character of the alphabet appears about equally often", () => {
  const counts = new Map<string, number>();
  for (let i = 0; i < 4_000; i++) {
    for (const c of newRowId().slice(1)) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  assert.equal(counts.size, 36);
  const expected = (4_000 * 24) / 36;
  for (const [c, n] of counts) assert.ok(Math.abs(n - expected) < expected * 0.15, `${c}: ${n}`);
});
