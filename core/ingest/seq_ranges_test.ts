import assert from "node:assert/strict";
import fc from "fast-check";
import { fromMultirange, rangesOf, type SeqRanges, subtract, toMultirange } from "./seq_ranges.ts";

const set = (ranges: SeqRanges) =>
  new Set(
    ranges.flatMap(([start, end]) => Array.from({ length: end - start }, (_, i) => start + i)),
  );

Deno.test("seq ranges: what is left of a batch's numbers is exactly those not stored", () => {
  const ranges = fc.uniqueArray(fc.nat(60), { maxLength: 40 }).map((ns) =>
    rangesOf(ns.sort((a, b) => a - b))
  );
  fc.assert(fc.property(ranges, ranges, (a, b) => {
    const left = subtract(a, b);
    assert.deepEqual(set(left), new Set([...set(a)].filter((n) => !set(b).has(n))));
    assert.deepEqual(left, rangesOf([...set(left)].sort((x, y) => x - y)), "sorted and merged");
  }));
});

Deno.test("seq ranges: PostgreSQL's int8multirange text reads back as written", () => {
  assert.equal(toMultirange([[0, 10], [20, 30]]), "{[0,10),[20,30)}");
  assert.deepEqual(fromMultirange("{[0,10),[20,30)}"), [[0, 10], [20, 30]]);
  assert.deepEqual(fromMultirange("{}"), []);
});
