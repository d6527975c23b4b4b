// Bodies are admitted before they are read: past the bytes the process may hold in bodies at once,
// a body that declares its length is answered 503 + Retry-After without a byte of it read, and a
// chunked or inflating one is refused as soon as it would go past; small bodies are never refused
// for it, and one public key holds at most half of it.
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import {
  bodyBudget,
  createBodyBudget,
  MAX_BODY_BYTES_HELD,
  SMALL_BODY_BYTES,
} from "@/http/body_budget.ts";
import { readWire } from "@/http/body.ts";
import { createTestApp } from "@/tests/helpers/app.ts";
import { insertProject } from "@/tests/helpers/factories.ts";
import { T0 } from "@/tests/helpers/times.ts";

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;

/**
 * A body of `size` bytes (a JSON batch with one large text event) served in 64 KiB chunks only as
 * the reader pulls them, and not past `holdAt` bytes until `open()`; `pulled` counts what was read.
 */
function heldBody(size: number, holdAt = size) {
  const head = new TextEncoder().encode(
    `{"sessionId":"${crypto.randomUUID()}","events":[{"type":3,"timestamp":${T0},"data":"`,
  );
  const tail = new TextEncoder().encode(`"}]}`);
  let pulled = 0;
  let opened!: () => void;
  const gate = new Promise<void>((resolve) => opened = resolve);
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pulled >= holdAt) await gate;
      const bytes = new Uint8Array(Math.min(CHUNK, size - pulled)).fill(0x61);
      if (pulled === 0) bytes.set(head);
      if (pulled + bytes.byteLength === size) bytes.set(tail, bytes.byteLength - tail.byteLength);
      pulled += bytes.byteLength;
      controller.enqueue(bytes);
      if (pulled === size) controller.close();
    },
  }, { highWaterMark: 0 });
  return {
    stream,
    open: () => opened(),
    get pulled() {
      return pulled;
    },
  };
}

/** `promise`, or a failure naming `what` if it has not settled in two minutes (a hang guard). */
async function guard<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} never came`)), 120_000);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("body budget: small bodies are free; the budget itself fits, one byte more is refused", () => {
  const budget = createBodyBudget(MiB);
  for (let i = 0; i < 100; i++) budget.take(0, SMALL_BODY_BYTES);
  assert.equal(budget.held, 0);
  budget.take(0, SMALL_BODY_BYTES + MiB / 2); // counts MiB / 2
  budget.take(0, SMALL_BODY_BYTES + MiB / 2); // exactly the budget
  assert.equal(budget.held, MiB);
  assert.throws(() => budget.take(0, SMALL_BODY_BYTES + 1), { kind: "unavailable" });
  // A body growing past the small size counts from there.
  budget.give(SMALL_BODY_BYTES + MiB / 2);
  budget.take(0, SMALL_BODY_BYTES - 10);
  budget.take(SMALL_BODY_BYTES - 10, 20);
  assert.equal(budget.held, MiB / 2 + 10);
});

Deno.test("body budget: a key holds at most half of it: its body is refused at the byte past its half, another key's is admitted", () => {
  const budget = createBodyBudget(MiB);
  budget.take(0, SMALL_BODY_BYTES + MiB / 4, "a");
  budget.take(0, SMALL_BODY_BYTES + MiB / 4, "a"); // exactly half
  assert.throws(() => budget.take(0, SMALL_BODY_BYTES + 1, "a"), { kind: "unavailable" });
  assert.equal(budget.heldBy("a"), MiB / 2);
  // Another key fills the other half; then the budget itself is full, for anyone.
  budget.take(0, SMALL_BODY_BYTES + MiB / 2, "b");
  assert.equal(budget.held, MiB);
  assert.throws(() => budget.take(0, SMALL_BODY_BYTES + 1, "c"), { kind: "unavailable" });
  budget.give(SMALL_BODY_BYTES + MiB / 4, "a");
  assert.deepEqual([budget.heldBy("a"), budget.held], [MiB / 4, MiB * 3 / 4]);
  // A key's only body may pass its half, as one body alone may pass the budget.
  const alone = createBodyBudget(MiB);
  alone.take(0, SMALL_BODY_BYTES + MiB * 3 / 4, "a");
  assert.equal(alone.heldBy("a"), MiB * 3 / 4);
});

Deno.test("body budget: a gzip body is held by its bytes inflated as they come: what the budget has left is read, one byte more is 503", async () => {
  const budget = createBodyBudget(256 * 1024);
  budget.take(0, SMALL_BODY_BYTES + 128 * 1024); // another body holds half
  const room = SMALL_BODY_BYTES + 128 * 1024; // its free part and the other half
  /** A gzip body of `size` bytes of JSON (a few hundred bytes on the wire). */
  const gzipBody = (size: number, declared: boolean) => {
    const json = `{"sessionId":"${crypto.randomUUID()}","events":[]}`;
    const wire = gzipSync(new TextEncoder().encode(json + " ".repeat(size - json.length)));
    const headers: Record<string, string> = { "content-encoding": "gzip" };
    if (declared) headers["content-length"] = String(wire.byteLength);
    return new Request("http://x/", { method: "POST", headers, body: new Uint8Array(wire) });
  };
  for (const declared of [false, true]) {
    const fits = await readWire(gzipBody(room, declared), 60_000, undefined, budget);
    assert.equal(fits.bytes.byteLength, room);
    assert.ok(fits.wireBytes < 1024, String(fits.wireBytes));
    assert.equal(budget.held, 256 * 1024, "the budget exactly");
    fits.release();
    await assert.rejects(readWire(gzipBody(room + 1, declared), 60_000, undefined, budget), {
      kind: "unavailable",
    });
    assert.equal(budget.held, 128 * 1024, "the refused body gave back what it took");
  }
});

Deno.test("body budget: one body larger than the whole budget is admitted when nothing else is held", () => {
  const budget = createBodyBudget(MiB);
  budget.take(0, 3 * MiB);
  budget.take(3 * MiB, MiB); // the same body, growing
  assert.throws(() => budget.take(0, 2 * SMALL_BODY_BYTES), { kind: "unavailable" });
});

Deno.test("ingest: 40 parallel 9.9 MiB bodies — those past the budget are 503 with none of their bytes read", async () => {
  await using t = await createTestApp();
  const { key } = await insertProject(t.db.kysely);
  const size = Math.floor(9.9 * MiB);
  // Each body stops after its first chunk until the test opens it: all 40 are in flight at once.
  const bodies = Array.from({ length: 40 }, () => heldBody(size, CHUNK));
  const answers = bodies.map((body) =>
    t.app.request("/api/ingest", {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(size),
        "x-service-public-key": key,
      },
      body: body.stream,
    })
  );
  // All from one key, which holds at most half of the budget.
  const admitted = Math.floor(MAX_BODY_BYTES_HELD / 2 / (size - SMALL_BODY_BYTES));
  // The refused ones answer while the admitted ones are still held mid-body.
  // Bounded: were the refused bodies read instead, they would wait on their gates forever.
  const refused = await guard(Promise.all(answers.slice(admitted)), "the refused answers");
  for (const res of refused) {
    assert.equal(res.status, 503);
    assert.equal(res.headers.get("retry-after"), "1");
    await res.body?.cancel();
  }
  assert.ok(bodies.slice(admitted).every((body) => body.pulled === 0), "refused bodies unread");
  assert.ok(bodyBudget.peak <= MAX_BODY_BYTES_HELD);
  for (const body of bodies) body.open();
  const done = await Promise.all(answers.slice(0, admitted));
  // 9.9 MiB of text in one event is a valid batch: stored.
  assert.deepEqual(done.map((res) => res.status), Array(admitted).fill(204));
  assert.equal(bodyBudget.held, 0, "every admitted body gave its bytes back");
});

Deno.test("body budget: a chunked body is refused once it would go past the budget, and read no further", async () => {
  const budget = createBodyBudget(MiB);
  const request = (body: ReadableStream<Uint8Array>) =>
    new Request("http://x/", { method: "POST", body });
  const first = heldBody(4 * MiB, MiB);
  const reading = readWire(request(first.stream), 60_000, undefined, budget);
  // The first body holds what it read (1 MiB) until the test opens it; wait until it has.
  for (let i = 0; i < 1000 && budget.held < MiB - SMALL_BODY_BYTES; i++) {
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.ok(budget.held >= MiB - SMALL_BODY_BYTES, String(budget.held));
  const second = heldBody(MiB);
  await assert.rejects(readWire(request(second.stream), 60_000, undefined, budget), {
    kind: "unavailable",
  });
  assert.ok(second.pulled <= SMALL_BODY_BYTES + 2 * CHUNK, `read ${second.pulled} bytes`);
  first.open();
  const wire = await reading;
  assert.equal(wire.bytes.byteLength, 4 * MiB);
  wire.release();
  wire.release();
  assert.equal(budget.held, 0, "released once, whatever the number of calls");
});
