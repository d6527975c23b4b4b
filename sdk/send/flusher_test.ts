import assert from "node:assert/strict";
import FakeTimers from "@sinonjs/fake-timers";
import { gzipSync } from "fflate";
import { FLUSH_BYTES, MAX_REQUEST_BYTES } from "./buffer.ts";
import { Flusher } from "./flusher.ts";
import type { PendingBatch } from "./keepalive.ts";
import { Transport } from "./transport.ts";
import {
  decoded,
  encodedEvents,
  events,
  numbers,
  scriptedDeps,
} from "@/tests/helpers/sdk_doubles.ts";

const CONFIG = { endpoint: "http://svc.test", apiKey: "sp_0123456789abcdef0123456789abcdef" };

/**
 * Runs `check` after what `act` sent was answered: on a controlled clock, whose `runAllAsync()`
 * lets every promise the doubles answer with settle (sdk_doubles answers within microtasks).
 */
async function answered(act: () => void): Promise<void> {
  const clock = FakeTimers.install({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    act();
    await clock.runAllAsync();
  } finally {
    clock.uninstall();
  }
}

function setup(
  opts: { script?: number[]; batchSize?: number; hold?: boolean; compressor?: boolean } = {},
) {
  const { deps, sent, delays } = scriptedDeps(opts.script);
  const parked: PendingBatch[][] = [];
  let identity: string | undefined;
  const flusher = new Flusher({
    sessionId: "s1",
    batchSize: opts.batchSize ?? 2000,
    hold: opts.hold ?? false,
    metadata: () => ({
      url: "http://app.test/",
      referrer: "",
      userAgent: "test",
      screenWidth: 1,
      screenHeight: 1,
      language: "en",
      ...(identity ? { userIdentity: { userId: identity, traits: {} } } : {}),
    }),
    gzipSync: () => (opts.compressor === false ? null : gzipSync),
    park: (batches) => parked.push(batches),
  }, new Transport(CONFIG, deps));
  return { flusher, sent, delays, parked, identify: (id: string) => (identity = id) };
}

Deno.test("flusher: reaching batchSize flushes; 2,000 events leave as four requests of 500", async () => {
  const { flusher, sent } = setup({ batchSize: 2000 });
  for (const e of events(1999)) flusher.add(e);
  assert.equal(sent.length, 0);
  flusher.add(events(1, 1999)[0]);
  await flusher.flush();
  assert.deepEqual(sent.map((r) => (r.json.events as unknown[]).length), [500, 500, 500, 500]);
  assert.deepEqual(numbers(sent), [...Array(2000).keys()]);
});

Deno.test("flusher: 1 MiB of buffered JSON flushes before batchSize is reached", async () => {
  const { flusher, sent } = setup({ batchSize: 2000 });
  const big = encodedEvents(5, 0, 250 * 1024).map((e) => JSON.parse(e.json));
  for (const e of big.slice(0, 4)) flusher.add(e);
  assert.ok(flusher.buffer.bytes < FLUSH_BYTES);
  assert.equal(flusher.buffer.length, 4, "under the threshold nothing is flushed");
  flusher.add(big[4]);
  assert.equal(flusher.buffer.length, 0, "the flush took the buffer at once");
  await flusher.flush();
  assert.deepEqual(numbers(sent), [0, 1, 2, 3, 4]);
});

Deno.test("flusher: heavy events leave in requests of at most 2 MiB, in order", async () => {
  const { flusher, sent } = setup({ hold: true });
  for (const e of events(30, 0, 300 * 1024)) flusher.add(e);
  for (const e of events(700, 30)) flusher.add(e);
  await flusher.release();
  assert.deepEqual(numbers(sent), [...Array(730).keys()]);
  for (const r of sent) {
    assert.ok((r.json.events as unknown[]).length <= 500);
    assert.ok(JSON.stringify(r.json.events).length <= MAX_REQUEST_BYTES);
  }
  // 30 events of 300 KB: six to a request; small ones fill the fifth up to 500 events.
  assert.deepEqual(sent.map((r) => (r.json.events as unknown[]).length), [6, 6, 6, 6, 500, 206]);
});

Deno.test("flusher: past 10,000 buffered events the oldest go, and their bytes with them", async () => {
  const { flusher, sent } = setup({ hold: true });
  for (const e of events(10_250)) flusher.add(e);
  assert.equal(flusher.buffer.length, 10_000);
  assert.equal(flusher.buffer.bytes, encodedEvents(10_000, 250).reduce((n, e) => n + e.bytes, 0));
  await flusher.release();
  assert.equal(sent.length, 20);
  assert.deepEqual(numbers(sent), Array.from({ length: 10_000 }, (_, i) => 250 + i));
});

Deno.test("flusher: metadata rides on the first batch only, and again after identify", async () => {
  const { flusher, sent, identify } = setup();
  for (const e of events(600)) flusher.add(e);
  await flusher.flush();
  assert.deepEqual(sent.map((r) => Boolean(r.json.metadata)), [true, false]);
  identify("u-1");
  flusher.resendMetadata();
  for (const e of events(2, 600)) flusher.add(e);
  await flusher.flush();
  for (const e of events(2, 602)) flusher.add(e);
  await flusher.flush();
  assert.deepEqual(sent.map((r) => Boolean(r.json.metadata)), [true, false, true, false]);
  const metadata = sent[2].json.metadata as { userIdentity: { userId: string } };
  assert.equal(metadata.userIdentity.userId, "u-1");
  assert.equal(sent[0].json.sessionId, "s1");
});

Deno.test("flusher: a 4xx drops the flushed events without retry; later events still go", async () => {
  const { flusher, sent, delays } = setup({ script: [400] });
  for (const e of events(700)) flusher.add(e);
  await flusher.flush();
  assert.equal(sent.length, 1, "the second batch of the dropped flush is not sent");
  assert.deepEqual(delays, []);
  for (const e of events(3, 700)) flusher.add(e);
  await flusher.flush();
  assert.deepEqual(numbers(sent.slice(1)), [700, 701, 702]);
  assert.ok(sent[1].json.metadata, "metadata is resent until a batch carrying it is accepted");
});

Deno.test("flusher: after four failures events wait for the next flush, in order", async () => {
  const { flusher, sent, delays } = setup({ script: [500, 0, 500, 0] });
  for (const e of events(600)) flusher.add(e);
  await flusher.flush();
  assert.equal(sent.length, 4);
  assert.deepEqual(delays, [1000, 2000, 4000]);
  for (const e of events(5, 600)) flusher.add(e);
  assert.equal(flusher.buffer.length, 605);
  await flusher.flush();
  assert.deepEqual(numbers(sent.slice(4)), [...Array(605).keys()]);
});

Deno.test("flusher: 500 then 204 delivers once, then continues with the next batch", async () => {
  const { flusher, sent, delays } = setup({ script: [500] });
  for (const e of events(501)) flusher.add(e);
  await flusher.flush();
  assert.deepEqual(delays, [1000]);
  assert.deepEqual(sent.map((r) => (r.json.events as unknown[]).length), [500, 500, 1]);
});

Deno.test("flusher: a held flusher sends nothing until release", async () => {
  const { flusher, sent } = setup({ hold: true, batchSize: 10 });
  for (const e of events(25)) flusher.add(e);
  await flusher.flush();
  assert.equal(sent.length, 0);
  await flusher.release();
  assert.deepEqual(numbers(sent), [...Array(25).keys()]);
});

Deno.test("flusher: unloading sends keepalive bodies and parks what does not fit", async () => {
  const { flusher, sent, parked } = setup();
  const noisy = events(900).map((e) => ({ ...e, noise: crypto.randomUUID().repeat(4) }));
  for (const e of noisy) flusher.add(e);
  await answered(() => flusher.hide(true));
  assert.ok(sent.length > 0 && sent.every((r) => r.keepalive));
  assert.ok(sent.every((r) => r.headers["content-encoding"] === "gzip"));
  assert.equal(parked.length, 1);
  const parkedEvents = decoded(parked[0].flatMap((b) => b.events));
  assert.deepEqual([...numbers(sent), ...numbers([{ json: { events: parkedEvents } }])], [
    ...Array(900).keys(),
  ]);
  assert.equal(flusher.buffer.length, 0);
});

Deno.test("flusher: before the compressor loads, unload bodies go plain within the same budget", async () => {
  const { flusher, sent, parked } = setup({ compressor: false });
  const noisy = events(900).map((e) => ({ ...e, noise: crypto.randomUUID().repeat(4) }));
  for (const e of noisy) flusher.add(e);
  await answered(() => flusher.hide(true));
  assert.ok(sent.length > 0 && sent.every((r) => r.keepalive));
  assert.ok(sent.every((r) => r.headers["content-encoding"] === undefined));
  assert.ok(sent.reduce((sum, r) => sum + r.bytes, 0) <= 60 * 1024);
  const parkedEvents = decoded(parked[0].flatMap((b) => b.events));
  assert.deepEqual([...numbers(sent), ...numbers([{ json: { events: parkedEvents } }])], [
    ...Array(900).keys(),
  ]);
});

Deno.test("flusher: a held page parks everything at unload and keeps it when merely hidden", () => {
  const { flusher, sent, parked } = setup({ hold: true });
  for (const e of events(5)) flusher.add(e);
  flusher.hide(false);
  assert.equal(flusher.buffer.length, 5);
  flusher.hide(true);
  assert.equal(sent.length, 0);
  assert.equal(parked[0].flatMap((b) => b.events).length, 5);
});

Deno.test("flusher: restored batches go first, exactly as they were", async () => {
  const { flusher, sent } = setup();
  flusher.restore([{ events: encodedEvents(3, 0) }, { events: encodedEvents(2, 3) }]);
  for (const e of events(2, 5)) flusher.add(e);
  await flusher.flush();
  assert.deepEqual(sent.map((r) => (r.json.events as unknown[]).length), [3, 2, 2]);
  assert.deepEqual(numbers(sent), [0, 1, 2, 3, 4, 5, 6]);
  // The previous page's events never open the session on this page's URL.
  assert.deepEqual(sent.map((r) => Boolean(r.json.metadata)), [false, false, true]);
});

Deno.test("flusher: unloading right after a restore keeps this page's metadata off the restored body", async () => {
  const { flusher, sent } = setup();
  flusher.restore([{ events: encodedEvents(3, 0) }]);
  for (const e of events(2, 3)) flusher.add(e);
  await answered(() => flusher.hide(true));
  assert.ok(sent.every((r) => r.keepalive));
  assert.deepEqual(numbers(sent), [0, 1, 2, 3, 4]);
  assert.deepEqual(sent.map((r) => Boolean(r.json.metadata)), [false, true]);
});

Deno.test("flusher: cancel waits for the request on the wire, drops the rest, then cancels", async () => {
  const { deps, sent } = scriptedDeps();
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const fetchNow = deps.fetch;
  let onWire = false;
  deps.fetch = async (input, init) => {
    if (String(input).endsWith("/api/ingest")) {
      onWire = true;
      await gate;
    }
    return fetchNow(input, init);
  };
  const flusher = new Flusher({
    sessionId: "s1",
    batchSize: 2000,
    hold: false,
    metadata: () => ({} as never),
    gzipSync: () => gzipSync,
    park: () => {},
  }, new Transport(CONFIG, deps));
  for (const e of events(600)) flusher.add(e);
  let flushing!: Promise<void>;
  await answered(() => flushing = flusher.flush());
  assert.ok(onWire);
  let cancelled = false;
  let cancelling!: Promise<unknown>;
  await answered(() => cancelling = flusher.cancel().then(() => (cancelled = true)));
  assert.equal(cancelled, false, "cancel waits while a batch is on the wire");
  open();
  await Promise.all([flushing, cancelling]);
  assert.deepEqual(sent.map((r) => new URL(r.url).pathname), [
    "/api/ingest",
    "/api/sessions/cancel",
  ]);
  flusher.add(events(1)[0]);
  await flusher.flush();
  assert.equal(sent.length, 2, "nothing is buffered or sent after cancel");
});

Deno.test("flusher: a hidden page's keepalive bodies carry at most 500 events each", async () => {
  const { flusher, sent } = setup();
  for (const e of events(1_200)) flusher.add(e);
  await answered(() => flusher.hide(false));
  assert.ok(sent.every((r) => r.keepalive && (r.json.events as unknown[]).length <= 500));
  assert.deepEqual(numbers(sent), [...Array(1_200).keys()]);
  assert.equal(flusher.buffer.length, 0);
});

/** The `n` of each unacknowledged batch's events. */
const pendingNumbers = (flusher: Flusher) =>
  flusher.unacknowledged().map((batch) => decoded(batch).map((e) => (e.data as { n: number }).n));

Deno.test("flusher: what is unacknowledged is every event not yet answered, as it will be sent", async () => {
  const { flusher } = setup({ script: [0, 0, 0, 0] });
  let sealed = 0;
  flusher.config.sealed = () => sealed++;
  for (const e of events(3)) flusher.add(e);
  assert.deepEqual(pendingNumbers(flusher), [[0, 1, 2]]);
  const revision = flusher.revision;
  await flusher.flush(); // four failures: the events wait in the buffer
  assert.equal(sealed, 1, "the journal is told when a flush cuts its batches");
  assert.ok(flusher.revision > revision);
  assert.deepEqual(pendingNumbers(flusher), [[0, 1, 2]]);
  await flusher.flush(); // delivered (204)
  assert.deepEqual(pendingNumbers(flusher), []);
});

Deno.test("flusher: keepalive bodies stay unacknowledged until answered, a 5xx or 408 keeps them", async () => {
  for (const [status, kept] of [[204, false], [400, false], [408, true], [503, true], [0, true]]) {
    const { flusher } = setup({ script: [status as number] });
    for (const e of events(3)) flusher.add(e);
    await answered(() => {
      flusher.hide(true);
      assert.deepEqual(pendingNumbers(flusher), [[0, 1, 2]], `sent with status ${status}`);
    });
    assert.deepEqual(pendingNumbers(flusher), kept ? [[0, 1, 2]] : [], `answered ${status}`);
  }
});
