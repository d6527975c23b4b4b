import assert from "node:assert/strict";
import { chunk, EventBuffer } from "./buffer.ts";
import { events } from "./test_helpers.ts";

const ns = (list: { data: unknown }[]) => list.map((e) => (e.data as { n: number }).n);

Deno.test("buffer: past the ceiling the oldest events are dropped first", () => {
  const buffer = new EventBuffer(10_000);
  for (const e of events(10_250)) buffer.push(e);
  assert.equal(buffer.length, 10_000);
  assert.equal(buffer.dropped, 250);
  const kept = ns(buffer.takeAll());
  assert.equal(kept[0], 250);
  assert.equal(kept.at(-1), 10_249);
  assert.equal(buffer.length, 0);
});

Deno.test("buffer: requeued events go in front of newer ones, and the ceiling still holds", () => {
  const buffer = new EventBuffer(5);
  for (const e of events(3, 10)) buffer.push(e);
  buffer.unshift(events(4, 0));
  assert.deepEqual(ns(buffer.takeAll()), [2, 3, 10, 11, 12]);
});

Deno.test("buffer: 2,000 events cut into four batches of 500, in order", () => {
  const batches = chunk(events(2_000));
  assert.deepEqual(batches.map((b) => b.length), [500, 500, 500, 500]);
  assert.deepEqual(ns(batches.flat()), ns(events(2_000)));
  assert.deepEqual(chunk(events(1_201)).map((b) => b.length), [500, 500, 201]);
  assert.deepEqual(chunk([]), []);
});
