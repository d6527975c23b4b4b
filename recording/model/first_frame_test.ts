import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import {
  drawFirstFrame,
  FIRST_FRAME_BATCHES,
  FIRST_FRAME_LIMITS,
  firstFrame,
} from "./first_frame.ts";
import { FRAME_PRELUDE } from "./snapshot_html.ts";

const meta = { type: 4, timestamp: 1, data: { href: "https://x.test/", width: 1280, height: 800 } };
const snapshot = (body: string, initialOffset = { left: 0, top: 0 }) => ({
  type: 2,
  timestamp: 2,
  data: {
    initialOffset,
    node: {
      type: 0,
      childNodes: [{
        type: 2,
        tagName: "body",
        attributes: { onload: "x()" },
        childNodes: [{ type: 3, textContent: body }],
      }],
    },
  },
});
const move = { type: 3, timestamp: 3, data: { source: 1, positions: [] } };

const gz = (text: string) => new Uint8Array(gzipSync(text));
const batch = (events: unknown[]) => gz(JSON.stringify(events));
/** Batches as the server reads them: each in slices (here two). */
async function* of(...batches: Uint8Array[]) {
  for (const bytes of batches) {
    const half = bytes.length >> 1;
    yield [bytes.subarray(0, half), bytes.subarray(half)];
  }
}

Deno.test("first frame: the first Meta's size and the first snapshot as a cleaned document", async () => {
  const frame = await firstFrame(of(batch([meta, snapshot("one"), move, snapshot("two")])));
  assert.deepEqual(frame, { width: 1280, height: 800, html: `${FRAME_PRELUDE}<body>one</body>` });
});

Deno.test("first frame: parsing stops at the snapshot (what follows it is never read)", async () => {
  const text = JSON.stringify([meta, snapshot("early")]).slice(0, -1) + ', {"broken": ';
  const frame = await firstFrame(of(gz(text)));
  assert.equal(frame?.html, `${FRAME_PRELUDE}<body>early</body>`);
});

Deno.test("first frame: Meta and snapshot may sit in different batches", async () => {
  const frame = await firstFrame(of(batch([meta, move]), batch([move, snapshot("later")])));
  assert.equal(frame?.html, `${FRAME_PRELUDE}<body>later</body>`);
});

Deno.test("first frame: none without a snapshot in the first batches, scrolled, or corrupt", async () => {
  const empty = Array.from({ length: FIRST_FRAME_BATCHES }, () => batch([meta, move]));
  assert.equal(await firstFrame(of(...empty, batch([snapshot("too late")]))), null);
  assert.equal(await firstFrame(of(batch([meta, snapshot("x", { left: 0, top: 40 })]))), null);
  assert.equal(await firstFrame(of(batch([snapshot("no meta before")]))), null);
  assert.equal(await firstFrame(of(new Uint8Array([1, 2, 3]))), null);
  assert.equal(await firstFrame(of()), null);
});

/** A full snapshot of `count` divs, each with a text node: ~90 bytes of JSON a node. */
function bigSnapshot(count: number) {
  const nodes = Array.from({ length: count }, (_, i) => ({
    type: 2,
    tagName: "div",
    attributes: {},
    childNodes: [{ type: 3, textContent: `node ${i}` }],
  }));
  return {
    type: 2,
    timestamp: 2,
    data: {
      initialOffset: { left: 0, top: 0 },
      node: {
        type: 0,
        childNodes: [{ type: 2, tagName: "body", attributes: {}, childNodes: nodes }],
      },
    },
  };
}

Deno.test("first frame: none for a snapshot past the byte limit, read no further than the limit", async () => {
  const limit = 1024 * 1024;
  const limits = { ...FIRST_FRAME_LIMITS, maxBytes: limit };
  const big = bigSnapshot(40_000);
  assert.ok(JSON.stringify(big).length > 3 * limit);
  const bytes = batch([meta, big, move]);
  // The batch in 4 KiB slices, counting how many were read.
  let read = 0;
  const slices = Math.ceil(bytes.length / 4096);
  async function* counted() {
    yield (async function* () {
      for (let i = 0; i < slices; i++) {
        read++;
        yield bytes.subarray(i * 4096, (i + 1) * 4096);
      }
    })();
  }
  assert.equal(await firstFrame(counted(), limits), null);
  assert.ok(read < slices / 2, `${read} of ${slices} slices read`);
  // Just under the limit the server still draws it.
  const under = bigSnapshot(Math.floor(limit / 120));
  assert.ok(JSON.stringify(under).length < limit);
  const frame = await firstFrame(of(batch([meta, under])), limits);
  assert.ok(frame?.html.includes("<div>node 0</div>"));
});

Deno.test("first frame: bounded in nodes and HTML, each at and past its bound, with the reason", async () => {
  // bigSnapshot(n) has 2n + 2 nodes: the document, the body, and each div with its text.
  const bytes = () => batch([meta, bigSnapshot(99)]);
  const nodes = 2 * 99 + 2;
  const draw = (limits: Partial<typeof FIRST_FRAME_LIMITS>) =>
    drawFirstFrame(of(bytes()), { ...FIRST_FRAME_LIMITS, ...limits });
  assert.ok((await draw({ maxNodes: nodes })).frame);
  assert.deepEqual(await draw({ maxNodes: nodes - 1 }), {
    frame: null,
    failure: "too-many-nodes",
    events: 2,
  });
  const html = (await draw({})).frame!.html.length;
  assert.ok((await draw({ maxHtmlChars: html })).frame);
  assert.equal((await draw({ maxHtmlChars: html - 1 })).failure, "too-large");
});

Deno.test("first frame: the shipped bounds draw a snapshot past the old 1 MiB limit", async () => {
  const big = bigSnapshot(40_000);
  assert.ok(JSON.stringify(big).length > 3 * 1024 * 1024);
  const frame = await firstFrame(of(batch([meta, big])));
  assert.ok(frame?.html.includes("<div>node 39999</div>"));
  assert.ok(FIRST_FRAME_LIMITS.maxNodes >= 150_000, "a 150,000-node page gets its frame");
});
