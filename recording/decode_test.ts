import assert from "node:assert/strict";
import { decodeBatch } from "./decode.ts";

async function encode(text: string): Promise<string> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer()).toBase64();
}

Deno.test("decode: base64 of gzip of a JSON array becomes the events", async () => {
  const events = [{ type: 4, data: { width: 1, height: 2 }, timestamp: 5 }, {
    type: 6,
    data: { payload: ["é ✓"] },
    timestamp: 6,
  }];
  assert.deepEqual(await decodeBatch(await encode(JSON.stringify(events))), events);
});

Deno.test("decode: corrupt base64, gzip or JSON fails; non-events are dropped", async () => {
  await assert.rejects(decodeBatch("!!not base64!!"));
  await assert.rejects(decodeBatch(btoa("plain text, not gzip")));
  await assert.rejects(decodeBatch(await encode("[{")));
  await assert.rejects(decodeBatch(await encode('{"type":2}')));
  assert.deepEqual(
    await decodeBatch(await encode('[null, 3, {"type":2}, {"type":2,"timestamp":1}]')),
    [
      { type: 2, timestamp: 1 },
    ],
  );
});
