import assert from "node:assert/strict";
import { cutBatches, EventBuffer, MAX_REQUEST_BYTES } from "./buffer.ts";
import type { EncodedEvent } from "./encoded_event.ts";
import { decoded, encodedEvents } from "@/tests/helpers/sdk_doubles.ts";

const ns = (list: EncodedEvent[]) => decoded(list).map((e) => (e.data as { n: number }).n);
const sizes = (list: EncodedEvent[]) => list.reduce((n, e) => n + e.bytes, 0);

Deno.test("buffer: past the ceiling the oldest events are dropped first, bytes included", () => {
  const buffer = new EventBuffer(10_000);
  const all = encodedEvents(10_250);
  for (const e of all) buffer.push(e);
  assert.equal(buffer.length, 10_000);
  assert.equal(buffer.dropped, 250);
  assert.equal(buffer.bytes, sizes(all.slice(250)));
  const kept = ns(buffer.takeAll());
  assert.equal(kept[0], 250);
  assert.equal(kept.at(-1), 10_249);
  assert.equal(buffer.length, 0);
  assert.equal(buffer.bytes, 0);
});

Deno.test("buffer: requeued events go in front of newer ones, and the ceiling still holds", () => {
  const buffer = new EventBuffer(5);
  for (const e of encodedEvents(3, 10)) buffer.push(e);
  buffer.unshift(encodedEvents(4, 0));
  const kept = buffer.takeAll();
  assert.deepEqual(ns(kept), [2, 3, 10, 11, 12]);
  assert.equal(buffer.bytes, 0);
  buffer.unshift(kept);
  assert.equal(buffer.bytes, sizes(kept));
});

Deno.test("buffer: 2,000 small events cut into four requests of 500, in order", () => {
  const batches = cutBatches(encodedEvents(2_000));
  assert.deepEqual(batches.map((b) => b.length), [500, 500, 500, 500]);
  assert.deepEqual(ns(batches.flat()), [...Array(2_000).keys()]);
  assert.deepEqual(cutBatches(encodedEvents(1_201)).map((b) => b.length), [500, 500, 201]);
  assert.deepEqual(cutBatches([]), []);
});

Deno.test("buffer: requests stay under the byte cap; a larger event goes alone, in order", () => {
  const big = 300 * 1024; // about the largest mutation of a heavy editor page
  const list = [
    ...encodedEvents(20, 0, big),
    ...encodedEvents(1, 20, MAX_REQUEST_BYTES + 10),
    ...encodedEvents(600, 21),
  ];
  const batches = cutBatches(list);
  assert.deepEqual(ns(batches.flat()), [...Array(621).keys()], "nothing lost or reordered");
  for (const batch of batches) {
    assert.ok(batch.length <= 500);
    assert.ok(batch.length === 1 || sizes(batch) + batch.length + 1 <= MAX_REQUEST_BYTES);
  }
  assert.deepEqual(batches.map((b) => b.length), [6, 6, 6, 2, 1, 500, 100]);
  assert.ok(batches.every((b) => JSON.stringify(decoded(b)).length === b.length + 1 + sizes(b)));
});
