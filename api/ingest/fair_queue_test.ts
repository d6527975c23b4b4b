import assert from "node:assert/strict";
import { createFairQueue } from "./fair_queue.ts";

/** Pushes `[key, item]` pairs, then shifts everything: the order items come out. */
function served(pushes: [string, string][]): string[] {
  const queue = createFairQueue<string>();
  for (const [key, item] of pushes) queue.push(key, item);
  const out: string[] = [];
  for (let i = 0; i < pushes.length && queue.length > 0; i++) out.push(queue.shift()!);
  assert.equal(queue.length, 0);
  return out;
}

Deno.test("fair queue: keys take turns, each key's items in their order", () => {
  const cases: { pushes: [string, string][]; order: string[] }[] = [
    // A flood of one key, then another key's one item: it comes second, not last.
    {
      pushes: [["a", "a1"], ["a", "a2"], ["a", "a3"], ["a", "a4"], ["b", "b1"]],
      order: ["a1", "b1", "a2", "a3", "a4"],
    },
    {
      pushes: [["a", "a1"], ["b", "b1"], ["a", "a2"], ["c", "c1"], ["b", "b2"]],
      order: ["a1", "b1", "c1", "a2", "b2"],
    },
    { pushes: [["a", "a1"], ["a", "a2"]], order: ["a1", "a2"] },
    { pushes: [], order: [] },
  ];
  for (const { pushes, order } of cases) assert.deepEqual(served(pushes), order);
});

Deno.test("fair queue: a key served goes behind the others; one coming back joins the end", () => {
  const queue = createFairQueue<string>();
  queue.push("a", "a1");
  queue.push("a", "a2");
  queue.push("b", "b1");
  assert.equal(queue.shift(), "a1");
  assert.equal(queue.shift(), "b1"); // b's queue is empty now
  queue.push("b", "b2"); // b comes back behind a
  queue.push("c", "c1");
  assert.deepEqual([queue.waiting("a"), queue.waiting("b"), queue.waiting("c")], [1, 1, 1]);
  assert.deepEqual([queue.shift(), queue.shift(), queue.shift()], ["a2", "b2", "c1"]);
  assert.equal(queue.shift(), undefined);
  assert.equal(queue.waiting("a"), 0);
});
