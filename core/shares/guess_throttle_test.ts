import assert from "node:assert/strict";
import { GuessThrottle } from "./guess_throttle.ts";

Deno.test("guess throttle: 20 unknown tokens a sliding minute pass, the 21st waits for the oldest to leave", () => {
  let now = 0;
  const throttle = new GuessThrottle(() => now);
  for (let i = 0; i < 19; i++) {
    assert.equal(throttle.retryAfter("a"), 0);
    throttle.miss("a");
  }
  assert.equal(throttle.retryAfter("a"), 0, "19 misses: the 20th may look");
  throttle.miss("a");
  assert.equal(throttle.retryAfter("a"), 60, "20 misses at 0 ms: the next waits a minute");
  assert.equal(throttle.retryAfter("b"), 0, "another address is not held");
  now = 59_999;
  assert.equal(throttle.retryAfter("a"), 1, "1 ms before the first miss leaves");
  now = 60_000;
  assert.equal(throttle.retryAfter("a"), 0, "gone at exactly a minute");
});

Deno.test("guess throttle: misses spread over the minute each leave on their own", () => {
  let now = 0;
  const throttle = new GuessThrottle(() => now);
  for (let i = 0; i < 20; i++) {
    throttle.miss("a");
    now += 1_000;
  }
  // Misses at 0..19 s; at 20 s the one at 0 s leaves at 60 s.
  assert.equal(throttle.retryAfter("a"), 40);
  now = 60_000;
  throttle.miss("a"); // the 0 s miss left: this one fits
  assert.equal(throttle.retryAfter("a"), 1, "the 1 s miss leaves at 61 s");
});
