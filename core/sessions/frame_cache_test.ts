import assert from "node:assert/strict";
import { FrameCache } from "./frame_cache.ts";

const frame = (chars: number) => ({ srcdoc: "x".repeat(chars) });

Deno.test("frame cache: at most its entries, the least recently read dropped first", () => {
  const cache = new FrameCache(2, 1_000);
  cache.set("a", frame(1));
  cache.set("b", frame(1));
  cache.get("a"); // now b is the oldest read
  cache.set("c", frame(1));
  assert.deepEqual(["a", "b", "c"].map((key) => !!cache.get(key)), [true, false, true]);
});

Deno.test("frame cache: at most its characters of HTML; a frame larger than all is not kept", () => {
  const cache = new FrameCache(10, 10);
  cache.set("a", frame(5));
  cache.set("b", frame(5)); // 10: both fit
  assert.equal(cache.size, 2);
  cache.set("c", frame(1)); // 11: a goes
  assert.deepEqual(["a", "b", "c"].map((key) => !!cache.get(key)), [false, true, true]);
  cache.set("d", frame(11));
  assert.equal(cache.get("d"), undefined);
  cache.set("b", frame(2)); // replacing counts the new size only
  cache.set("e", frame(7)); // 1 + 2 + 7 = 10
  assert.equal(cache.size, 3);
});
