import assert from "node:assert/strict";
import {
  decodeAnswer,
  decodeEvents,
  type DecodeMessage,
  decoderState,
  SLICE_EVENTS,
  slices,
} from "./decode_worker.ts";

async function base64Gzip(value: unknown): Promise<string> {
  const stream = new Blob([JSON.stringify(value)]).stream()
    .pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer()).toBase64();
}

/** The answer's bytes in small pieces, as a slow network would deliver them. */
function trickle(text: string, size: number): ReadableStream<Uint8Array<ArrayBuffer>> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(offset, offset += size));
    },
  });
}

Deno.test("decode worker: batches come out decoded, checked and sanitised; a corrupt one is reported", async () => {
  const first = [
    { type: 4, data: { href: "https://a.test/", width: 1280, height: 800 }, timestamp: 10 },
    {
      type: 2,
      data: { node: { type: 2, id: 1, tagName: "img", attributes: { onerror: "x()" } } },
      timestamp: 11,
    },
    { type: 99, data: {}, timestamp: 12 },
  ];
  const answer = JSON.stringify({
    batches: [
      {
        id: "7",
        firstTimestamp: 10,
        lastTimestamp: 12,
        eventCount: 3,
        data: await base64Gzip(first),
      },
      { id: "8", firstTimestamp: 20, lastTimestamp: 30, eventCount: 2, data: "bm90IGd6aXA=" },
    ],
    nextCursor: null,
  });
  const out: DecodeMessage[] = [];
  for await (const m of decodeAnswer(trickle(answer, 13), decoderState())) out.push(m);
  assert.deepEqual(out, [
    {
      kind: "batch",
      batch: { id: "7", firstTimestamp: 10, lastTimestamp: 12 },
      events: [first[0], {
        type: 2,
        data: { node: { type: 2, id: 1, tagName: "img", attributes: {} } },
        timestamp: 11,
      }],
      skipped: 1,
    },
    { kind: "corrupt", batch: { id: "8", firstTimestamp: 20, lastTimestamp: 30 } },
    { kind: "done" },
  ]);
});

Deno.test("decode worker: a batch is posted up to its first snapshot, then in slices", () => {
  const events = Array.from({ length: 250 }, (_, i) => ({ type: i === 3 ? 2 : 3 }));
  assert.deepEqual(slices(events).map((part) => part.length), [4, SLICE_EVENTS, SLICE_EVENTS, 46]);
  assert.deepEqual(slices(events).flat(), events);
  assert.deepEqual(slices([{ type: 3 }]).map((p) => p.length), [1]);
  assert.deepEqual(slices([]), [[]]);
});

Deno.test("decode worker: the events stamped at the first snapshot's millisecond are posted with it", () => {
  const at = (type: number, timestamp: number) => ({ type, timestamp });
  const events = [at(4, 10), at(2, 10), at(3, 10), at(3, 10), at(3, 11), at(3, 12)];
  assert.deepEqual(slices(events).map((part) => part.length), [4, 2]);
  assert.deepEqual(slices(events).flat(), events);
});

Deno.test("decode worker: a batch already decoded is skipped when a later answer holds it again", async () => {
  const events = [{ type: 3, data: { source: 2, type: 1, id: 1, x: 0, y: 0 }, timestamp: 5 }];
  const batch = async (id: string) => ({
    id,
    firstTimestamp: 5,
    lastTimestamp: 5,
    eventCount: 1,
    data: await base64Gzip(events),
  });
  const answer = async (ids: string[]) =>
    JSON.stringify({ batches: await Promise.all(ids.map(batch)), nextCursor: null });
  const state = decoderState();
  const ids = async (ids: string[]) => {
    const out: string[] = [];
    for await (const m of decodeAnswer(trickle(await answer(ids), 64), state)) {
      if (m.kind === "batch") out.push(m.batch.id);
    }
    return out;
  };
  assert.deepEqual(await ids(["3", "4"]), ["3", "4"]);
  assert.deepEqual(await ids(["1", "2", "3", "4", "5"]), ["1", "2", "5"]);
});

Deno.test("decode worker: an answer the page fetched and handed over is decoded without a request of its own", async () => {
  const events = [{ type: 3, data: { source: 2, type: 1, id: 1, x: 0, y: 0 }, timestamp: 5 }];
  const answer = JSON.stringify({
    batches: [{
      id: "9",
      firstTimestamp: 5,
      lastTimestamp: 5,
      eventCount: 1,
      data: await base64Gzip(events),
    }],
    nextCursor: null,
  });
  // Nothing listens there: a request would end in `failed`.
  const url = "http://127.0.0.1:9/api/sessions/x/events";
  const kinds: string[] = [];
  for await (const m of decodeEvents(url, decoderState(), undefined, trickle(answer, 7))) {
    kinds.push(m.kind);
  }
  assert.deepEqual(kinds, ["batch", "done"]);
});

Deno.test("decode worker: stopping a handed-over answer ends with `stopped`", async () => {
  const controller = new AbortController();
  // A first chunk, then nothing: a server that stalls mid-answer.
  let sent = false;
  const stalled = new ReadableStream<Uint8Array<ArrayBuffer>>({
    pull(c) {
      if (sent) return new Promise(() => {});
      sent = true;
      c.enqueue(new TextEncoder().encode('{"batches":['));
    },
  });
  const kinds: string[] = [];
  setTimeout(() => controller.abort(), 20);
  for await (
    const m of decodeEvents("http://127.0.0.1:9/", decoderState(), controller.signal, stalled)
  ) {
    kinds.push(m.kind);
  }
  assert.deepEqual(kinds, ["stopped"]);
});
