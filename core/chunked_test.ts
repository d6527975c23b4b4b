import assert from "node:assert/strict";
import { chunkedByKey } from "./chunked.ts";

Deno.test("chunkedByKey: each step starts at the key the one before ended at, until one is short", async () => {
  const rows = [1, 2, 3, 4, 5, 6, 7];
  const starts: number[] = [];
  const total = await chunkedByKey(3, 0, (from, limit) => {
    starts.push(from);
    const taken = rows.filter((row) => row > from).slice(0, limit);
    return Promise.resolve({ count: taken.length, last: taken.at(-1) ?? null });
  });
  assert.equal(total, 7);
  assert.deepEqual(starts, [0, 3, 6]);
});
