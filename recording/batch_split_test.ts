import assert from "node:assert/strict";
import { BatchSplitter } from "./batch_split.ts";

const answer = JSON.stringify({
  batches: [
    { id: "1", firstTimestamp: 1, lastTimestamp: 2, eventCount: 1, data: "H4sI+/==" },
    { id: "2", firstTimestamp: 3, lastTimestamp: 4, eventCount: 2, data: 'odd "}]{[\\ text' },
    { id: "3", nested: { a: [1, { b: "}" }] }, data: "" },
  ],
  nextCursor: null,
});

Deno.test("batch stream: every batch comes out whole, however the bytes are cut", () => {
  const expected = JSON.parse(answer).batches;
  for (const size of [1, 2, 3, 7, 50, answer.length]) {
    const splitter = new BatchSplitter();
    const found: unknown[] = [];
    for (let i = 0; i < answer.length; i += size) {
      for (const text of splitter.push(answer.slice(i, i + size))) found.push(JSON.parse(text));
    }
    assert.deepEqual(found, expected, `chunk size ${size}`);
  }
});

Deno.test("batch stream: a batch is handed over as soon as its closing brace arrives", () => {
  const splitter = new BatchSplitter();
  const cut = answer.indexOf(',{"id":"2"');
  assert.equal(splitter.push(answer.slice(0, cut)).length, 1);
  assert.equal(splitter.push(answer.slice(cut)).length, 2);
});

Deno.test("batch stream: an empty session yields nothing", () => {
  assert.deepEqual(new BatchSplitter().push('{"batches":[],"nextCursor":null}'), []);
});
