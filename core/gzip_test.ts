import assert from "node:assert/strict";
import { AppError } from "./errors.ts";
import { gunzipCapped, gzip, readCapped } from "./gzip.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("gzip: round-trips bytes", async () => {
  const input = bytes("hello ".repeat(1000));
  const compressed = await gzip(input);
  assert.ok(compressed.byteLength < input.byteLength);
  assert.deepEqual(await gunzipCapped(compressed, 1 << 20), input);
});

Deno.test("gzip: output past the cap is payload_too_large", async () => {
  const compressed = await gzip(new Uint8Array(2 << 20));
  await assert.rejects(gunzipCapped(compressed, 1 << 20), (e: unknown) => {
    assert.ok(e instanceof AppError);
    assert.equal(e.kind, "payload_too_large");
    return true;
  });
});

Deno.test("gzip: corrupt input is a validation error", async () => {
  const compressed = await gzip(bytes("{}"));
  compressed[compressed.length - 5] ^= 0xff; // breaks the CRC
  await assert.rejects(gunzipCapped(bytes("plain text"), 1 << 20), (e: unknown) => {
    assert.ok(e instanceof AppError);
    assert.equal(e.kind, "validation");
    return true;
  });
  await assert.rejects(gunzipCapped(compressed, 1 << 20), AppError);
});

Deno.test("gzip: readCapped stops at the limit without reading the rest", async () => {
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(1024));
    },
  });
  await assert.rejects(readCapped(endless, 10 * 1024, "body"), AppError);
  assert.ok(pulled <= 12, `pulled ${pulled} chunks`);
});
