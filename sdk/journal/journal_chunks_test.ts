import assert from "node:assert/strict";
import type { EncodedEvent } from "@/sdk/send/encoded_event.ts";
import { planChunks, type WrittenChunk } from "./journal_chunks.ts";

const MIB4 = 4_194_304; // 4 MiB, written out: the bound is the documented figure, not the constant

/** Events `from` to `to` (excluded) of page `pageId`, each `chars` characters of JSON. */
function events(pageId: string, from: number, to: number, chars = 10): EncodedEvent[] {
  return [...Array(to - from).keys()].map((i) => {
    const json = `"${String(from + i).padEnd(chars - 2, "x")}"`;
    return { json, bytes: json.length, page: pageId, seq: from + i };
  });
}

const span = (c: { pageId: string; seq: number; count: number }) =>
  `${c.pageId}:${c.seq}-${c.seq + c.count}`;

/** The page's journal after writes of `unacknowledged` in turn: what each write added. */
function writes(...unacknowledged: EncodedEvent[][][]) {
  let written: WrittenChunk[] = [];
  return unacknowledged.map((batches) => {
    const plan = planChunks("me", batches, written);
    written = plan.kept;
    return { added: plan.add.map(span), dropped: plan.drop.map(span), kept: written.map(span) };
  });
}

Deno.test("journal chunks: each write adds only the events recorded since the one before", () => {
  const [first, second, third] = writes(
    [events("p", 0, 10)],
    [events("p", 0, 15)],
    [events("p", 0, 5), events("p", 5, 15)], // the same events cut differently: nothing new
  );
  assert.deepEqual(first.added, ["p:0-10"]);
  assert.deepEqual(second.added, ["p:10-15"]);
  assert.deepEqual(third.added, []);
  assert.deepEqual(third.kept, ["p:0-10", "p:10-15"]);
});

Deno.test("journal chunks: a chunk goes once none of its events is unacknowledged, not before", () => {
  const [, partly, whole] = writes(
    [events("p", 0, 10)],
    [events("p", 9, 12)], // 0-8 acknowledged; 9 still not
    [events("p", 10, 12)],
  );
  assert.deepEqual(partly.dropped, []);
  assert.deepEqual(partly.added, ["p:10-12"]);
  assert.deepEqual(whole.dropped, ["p:0-10"]);
  assert.deepEqual(whole.kept, ["p:10-12"]);
});

Deno.test("journal chunks: runs of two pages' sequences and a gap are chunked apart", () => {
  const [only] = writes([
    [...events("prev", 3, 5)], // restored from the tab's previous page
    [...events("p", 0, 2), ...events("p", 4, 6)], // a gap: 2 and 3 acknowledged
  ]);
  assert.deepEqual(only.added, ["prev:3-5", "p:0-2", "p:4-6"]);
});

Deno.test("journal chunks: unnumbered events are kept whole, never as a chunk", () => {
  const unnumbered = [{ json: '"old"', bytes: 5 }];
  const plan = planChunks("me", [unnumbered, events("p", 0, 2)], []);
  assert.deepEqual(plan.unnumbered, ['["old"]']);
  assert.deepEqual(plan.add.map(span), ["p:0-2"]);
  // A batch whose numbered run is followed by unnumbered events: the run a chunk, the rest whole.
  const mixed = planChunks("me", [[...events("p", 0, 1), ...unnumbered]], []);
  assert.deepEqual(mixed.add.map(span), ["p:0-1"]);
  assert.deepEqual(mixed.unnumbered, ['["old"]']);
});

Deno.test("journal chunks: 4 MiB of chunks at and below it all kept, above it the oldest go first", () => {
  const chunk = MIB4 / 4; // each write's events: one event, its JSON array a quarter of the bound
  for (const [extra, kept] of [[-1, 4], [0, 4], [1, 3]] as const) {
    let written: WrittenChunk[] = [];
    const all: EncodedEvent[] = [];
    for (let w = 0; w < 4; w++) {
      // The last write's array is `extra` characters off a quarter.
      const size = w === 3 ? chunk + extra : chunk;
      const json = `"${"y".repeat(size - 4)}"`; // with the array's brackets: `size` characters
      all.push({ json, bytes: json.length, page: "p", seq: w });
      const plan = planChunks("me", [[...all]], written);
      written = plan.kept;
      if (w === 3) {
        assert.equal(plan.kept.length, kept, `the last write ${extra} off 1 MiB`);
        assert.equal(plan.kept.at(-1)!.seq, 3, "the newest stays");
        assert.equal(plan.drop.length, 4 - kept, "the oldest go from the store");
      }
    }
  }
});
