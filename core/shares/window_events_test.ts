import assert from "node:assert/strict";
import type { RecordedEvent } from "@/player/decode/decode.ts";
import { cutPoint } from "./window_events.ts";

const e = (type: number, timestamp: number): RecordedEvent => ({ type, data: {}, timestamp });

Deno.test("share window: the cut is the Meta leading the last full snapshot at or before the start", () => {
  const head = [
    [e(4, 0), e(2, 1), e(3, 5)],
    [e(3, 10), e(4, 30), e(2, 31), e(3, 35)],
  ];
  assert.deepEqual(cutPoint(head, 40), [1, 1]);
  assert.deepEqual(cutPoint(head, 31), [1, 1], "a snapshot exactly at the start counts");
  assert.deepEqual(cutPoint(head, 30), [0, 0], "one a millisecond after does not");
  assert.deepEqual(cutPoint(head, 0), [0, 0], "none at or before: from the beginning");
  // A snapshot without its Meta (taken alone): the cut is the snapshot itself.
  assert.deepEqual(cutPoint([[e(4, 0), e(2, 1), e(3, 2), e(2, 20)]], 25), [0, 3]);
});
