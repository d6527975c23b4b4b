import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { AppError } from "@/core/errors.ts";
import { gzip } from "@/core/gzip.ts";
import { gunzipCapped, MAX_DECODED_BYTES, readCapped, readWire } from "./body.ts";
import { createBodyBudget } from "./body_budget.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** The AppError kind `fn` throws, or null. */
function thrownKind(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return error.kind;
  }
}

Deno.test("gzip: round-trips bytes, and the platform's gunzip and the body reader read it", async () => {
  const input = bytes("hello ".repeat(1000));
  const compressed = gzip(input);
  assert.ok(compressed.byteLength < input.byteLength);
  assert.deepEqual(new Uint8Array(gunzipCapped(compressed, 1 << 20)), input);
  const stream = new Blob([compressed as BlobPart]).stream()
    .pipeThrough(new DecompressionStream("gzip"));
  assert.deepEqual(new Uint8Array(await new Response(stream).arrayBuffer()), input);
});

Deno.test("body: gunzip output past the cap is payload_too_large", () => {
  const compressed = gzip(new Uint8Array(2 << 20));
  assert.equal(thrownKind(() => gunzipCapped(compressed, 1 << 20)), "payload_too_large");
});

Deno.test("body: corrupt or truncated gzip input is a validation error", () => {
  const compressed = gzip(bytes("{}".repeat(100)));
  const corrupt = compressed.slice();
  corrupt[corrupt.length - 5] ^= 0xff; // breaks the CRC
  assert.equal(thrownKind(() => gunzipCapped(bytes("plain text"), 1 << 20)), "validation");
  assert.equal(thrownKind(() => gunzipCapped(corrupt, 1 << 20)), "validation");
  assert.equal(
    thrownKind(() => gunzipCapped(compressed.subarray(0, 12), 1 << 20)),
    "validation",
  );
});

Deno.test("body: readCapped stops at the limit without reading the rest", async () => {
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

Deno.test("body: a gzip body is refused at the inflated byte past its cap, the rest neither read nor inflated", async () => {
  // 1,000 gzip members of 1 MiB of zeros each (about 1 KiB): 1 GiB once inflated.
  const member = new Uint8Array(gzipSync(new Uint8Array(1 << 20)));
  const members = 1000;
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === members) return controller.close();
      pulled++;
      controller.enqueue(member.slice());
    },
  }, { highWaterMark: 0 });
  const request = new Request("http://x/", {
    method: "POST",
    headers: { "content-encoding": "gzip" },
    body,
  });
  await assert.rejects(readWire(request, 60_000, undefined, createBodyBudget()), {
    kind: "payload_too_large",
    message: `decompressed body exceeds ${MAX_DECODED_BYTES} bytes`,
  });
  // The 33rd member takes it past 32 MiB; a chunk or two may have been asked for ahead.
  assert.ok(pulled >= 33 && pulled <= 35, `${pulled} of ${members} members read`);
});
