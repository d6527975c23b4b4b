import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { decodeBatch, type RecordedEvent } from "@/recording/decode.ts";
import { type CutInput, type CutJob, cutPieces } from "./cut_job.ts";
import { CutPool } from "./cut_pool.ts";

const T0 = 1_700_000_000_000;
const e = (type: number, t: number, data: object = {}): RecordedEvent => ({
  type,
  data,
  timestamp: T0 + t,
});
const RECORDING = [
  [
    e(4, 0, { href: "https://shop.test/a?q=1", width: 800, height: 600 }),
    e(2, 1, {
      node: { type: 0, id: 1, childNodes: [{ type: 2, id: 2, tagName: "html", childNodes: [] }] },
      initialOffset: { left: 0, top: 0 },
    }),
  ],
  [e(3, 10_000, { source: 1, positions: [{ x: 1, y: 1, id: 2 }] })],
  [e(5, 20_000, { tag: "service:identity", payload: {} }), e(3, 20_001, { source: 2 })],
];

/** The stored batches, fresh bytes each time (the pool hands them over); `state` says how far. */
function stored(state = { read: 0, closed: false }): AsyncIterable<CutInput> {
  return (async function* () {
    try {
      for (const [i, events] of RECORDING.entries()) {
        state.read++;
        const bytes = new Uint8Array(gzipSync(JSON.stringify(events)));
        yield { id: String(i + 1), firstTimestamp: events[0].timestamp, bytes };
      }
    } finally {
      state.closed = true;
    }
  })();
}

const link: Extract<CutJob, { kind: "link" }> = {
  kind: "link",
  window: { start: T0 + 10_000, end: Infinity, showConsole: false },
};

async function all<T>(pieces: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const piece of pieces) out.push(piece);
  return out;
}

const eventsOf = async (batches: { data: string }[]) =>
  await Promise.all(batches.map((b) => decodeBatch(b.data)));

Deno.test("cut pool: a link's cut made in the worker is the cut made inline", async () => {
  const pool = new CutPool();
  try {
    const inWorker = await all(pool.batches(link, stored()));
    const inline = await all(cutPieces(link, stored())) as { data: string }[];
    assert.deepEqual(await eventsOf(inWorker), await eventsOf(inline));
    assert.deepEqual(inWorker.map((b) => b.id), ["0", "3"]);
    assert.equal(pool.started, 1);
    assert.equal(pool.decoded, 3);
    const json = await all(pool.json({ kind: "json", network: false, custom: false }, stored()));
    assert.deepEqual(
      JSON.parse(`[${json.join(",")}]`).map((event: RecordedEvent) => event.timestamp - T0),
      [0, 1, 10_000, 20_001], // never identify()'s event
    );
  } finally {
    pool.close();
  }
});

Deno.test("cut pool: cuts run side by side, each moved on only as its reader asks", async () => {
  const pool = new CutPool();
  try {
    const slow = { read: 0, closed: false };
    const whole = { ...link, window: { ...link.window, start: -Infinity } };
    const reader = pool.batches(whole, stored(slow))[Symbol.asyncIterator]();
    assert.equal((await reader.next()).done, false);
    assert.equal(slow.read, 1, "the first batch is cut as soon as it is read");
    // Another cut runs to its end while the first waits for its reader.
    assert.equal((await all(pool.batches(link, stored()))).length, 2);
    assert.equal(slow.read, 1, "the waiting cut read nothing more");
    // Given up: the job ends and its stored batches are let go.
    await reader.return!();
    assert.equal(pool.running, 0);
    assert.equal(slow.closed, true);
  } finally {
    pool.close();
  }
});

Deno.test("cut pool: at most its jobs at once; one more is refused with 503 until one ends", async () => {
  const pool = new CutPool({ maxJobs: 2 });
  try {
    const first = pool.batches(link, stored())[Symbol.asyncIterator]();
    assert.equal(pool.running, 1); // below the limit
    const second = pool.batches(link, stored())[Symbol.asyncIterator]();
    assert.equal(pool.running, 2); // at it
    assert.throws(() => pool.batches(link, stored()), (error: Error & { kind?: string }) => {
      assert.equal(error.kind, "unavailable");
      return true;
    });
    await first.return!();
    while (!(await second.next()).done) { /* read to its end */ }
    assert.equal(pool.running, 0);
    assert.equal((await all(pool.batches(link, stored()))).length, 2);
  } finally {
    pool.close();
  }
});

Deno.test("cut pool: closing fails the cuts in progress; the next cut starts a fresh worker", async () => {
  const pool = new CutPool();
  const reader = pool.batches(link, stored())[Symbol.asyncIterator]();
  await reader.next();
  const waiting = reader.next();
  pool.close();
  await assert.rejects(waiting, /closed/);
  assert.equal(pool.running, 0);
  try {
    assert.equal((await all(pool.batches(link, stored()))).length, 2);
    assert.equal(pool.started, 2);
  } finally {
    pool.close();
  }
});
