import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { gunzipSync, gzipSync } from "node:zlib";
import { memberAt, sameBytes } from "./gzip_members.ts";

const encoder = new TextEncoder();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const gz = (s: string) => new Uint8Array(gzipSync(encoder.encode(s)));
const concat = (...parts: Uint8Array[]) => new Uint8Array(Buffer.concat(parts));

async function decompressionStream(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(
    new DecompressionStream("gzip"),
  );
  return await new Response(stream).text();
}

Deno.test("gzip members: each member of a body is found alone, a gzip file of its own", async () => {
  const [a, b, c] = [gz('{"events":'), gz("[1,2,3]"), gz(',"x":1}')];
  const body = concat(a, b, c);
  assert.equal(text(gunzipSync(body)), '{"events":[1,2,3],"x":1}');
  const first = memberAt(body, 0, 100)!;
  assert.ok(sameBytes(first.gzip, a));
  assert.equal(text(first.inflated), '{"events":');
  const second = memberAt(body, a.length, 100)!;
  assert.ok(sameBytes(second.gzip, b));
  assert.equal(text(second.inflated), "[1,2,3]");
  // The strictest reader takes it: Deno's DecompressionStream refuses anything after a member.
  assert.equal(await decompressionStream(second.gzip), "[1,2,3]");
  await assert.rejects(decompressionStream(body.subarray(a.length)));
});

Deno.test("gzip members: what is not a plain, whole member within the limit is none", () => {
  const b = gz("[1,2,3]");
  assert.ok(memberAt(b, 0, 7));
  assert.equal(memberAt(b, 0, 6), null, "inflates past the limit");
  assert.equal(memberAt(b, 1, 100), null, "not at a member's start");
  assert.equal(memberAt(b.subarray(0, b.length - 1), 0, 100), null, "trailer cut short");
  assert.equal(memberAt(b.subarray(0, 14), 0, 100), null, "deflate data cut short");
  const named = b.slice();
  named[3] = 0x08; // FNAME: a header with a name this reader does not read
  assert.equal(memberAt(named, 0, 100), null);
  const badCrc = b.slice();
  badCrc[b.length - 8] ^= 1;
  assert.equal(memberAt(badCrc, 0, 100), null, "CRC-32 not that of the data");
  const badSize = b.slice();
  badSize[b.length - 4] ^= 1;
  assert.equal(memberAt(badSize, 0, 100), null, "size not that of the data");
});

Deno.test("gzip members: bytes after a member are not part of it", () => {
  const b = gz("[1,2,3]");
  const member = memberAt(concat(b, encoder.encode("junk")), 0, 100)!;
  assert.equal(member.gzip.length, b.length);
  // Two members where one is asked for: only the first is taken.
  const two = memberAt(concat(gz(""), b), 0, 100)!;
  assert.equal(two.inflated.length, 0);
  assert.equal(two.gzip.length, gz("").length);
});
