import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import type { RecordedEvent } from "@/recording/decode.ts";
import type { EventBatchOut } from "@/core/sessions/schema.ts";
import { type EventWindow, windowEvents } from "./window_events.ts";

const T0 = 1_700_000_000_000;
const e = (type: number, t: number, data: object = {}): RecordedEvent => ({
  type,
  data,
  timestamp: T0 + t,
});
const meta = (t: number) => e(4, t, { href: "https://shop.test/a?q=1", width: 800, height: 600 });
const snapshot = (t: number) =>
  e(2, t, {
    node: { type: 0, id: 1, childNodes: [{ type: 2, id: 2, tagName: "html", childNodes: [] }] },
    initialOffset: { left: 0, top: 0 },
  });
const move = (t: number) => e(3, t, { source: 1, positions: [{ x: 1, y: 1, id: 2 }] });
const log = (t: number) => e(6, t, { plugin: "rrweb/console@1", payload: {} });
const request = (t: number) => e(6, t, { plugin: "rrweb/network@1", payload: {} });
const custom = (t: number, tag = "checkout") => e(5, t, { tag, payload: {} });

function stored(batches: RecordedEvent[][]): AsyncIterable<EventBatchOut> {
  return (async function* () {
    for (const [i, events] of batches.entries()) {
      yield {
        id: String(i + 1),
        firstTimestamp: events[0].timestamp,
        lastTimestamp: events.at(-1)!.timestamp,
        eventCount: events.length,
        data: new Uint8Array(gzipSync(JSON.stringify(events))).toBase64(),
      };
    }
  })();
}

async function cut(batches: RecordedEvent[][], window: Partial<EventWindow>) {
  const out = [];
  const full = { start: -Infinity, end: Infinity, showConsole: false, ...window };
  for await (const batch of windowEvents(stored(batches), full)) out.push(batch);
  return out;
}

const RECORDING = [
  [meta(0), snapshot(1), move(10), log(20), request(25), custom(26)],
  [move(39_999), move(40_000), log(40_000), request(40_002), custom(40_003)],
  [move(70_000), move(70_001)],
];

Deno.test("window cut: nothing stamped before the start is sent; the page at the start leads, stamped at it", async () => {
  const batches = await cut(RECORDING, { start: T0 + 40_000, end: T0 + 70_000, showConsole: true });
  assert.deepEqual(batches.map((b) => b.id), ["0", "2", "3"]);
  assert.deepEqual(batches[0].events.map((e) => [e.type, e.timestamp - T0]), [
    [4, 40_000],
    [2, 40_000],
    [3, 40_000], // the pointer where it was at 40 s (the move at 40 s is the page's: in the start)
  ]);
  const sent = batches.flatMap((b) => b.events);
  assert.ok(sent.every((e) => e.timestamp >= T0 + 40_000 && e.timestamp <= T0 + 70_000));
  // A log at the start exactly is sent as recorded; at the end exactly too; a millisecond after, not.
  assert.deepEqual(batches[1].events.map((e) => [e.type, e.timestamp - T0]), [[6, 40_000]]);
  assert.deepEqual(batches[2].events.map((e) => e.timestamp - T0), [70_000]);
});

Deno.test("window cut: from the beginning nothing is synthesized; console, requests and custom events only when asked, identify() never", async () => {
  const recording = [[...RECORDING[0], custom(27, "service:identity")], ...RECORDING.slice(1)];
  const plain = (await cut(recording, {})).flatMap((b) => b.events);
  assert.deepEqual(plain.map((e) => e.timestamp - T0), [0, 1, 10, 39_999, 40_000, 70_000, 70_001]);
  const all = (await cut(recording, { showConsole: true, network: true, custom: true }))
    .flatMap((b) => b.events);
  assert.equal(all.length, plain.length + 6, "two logs, two requests, two custom events");
  assert.ok(all.every((e) => (e.data as { tag?: string }).tag !== "service:identity"));
  const logs = (await cut(recording, { start: T0 + 40_000, showConsole: true }))
    .flatMap((b) => b.events).filter((e) => e.type === 6);
  assert.deepEqual(logs.map((e) => e.timestamp - T0), [40_000], "the console from the start");
});

Deno.test("window cut: the map applies to the synthesized start too", async () => {
  const batches = [];
  const window = { start: T0 + 40_000, end: Infinity, showConsole: false };
  const hrefs = (e: RecordedEvent) =>
    e.type === 4 ? { ...e, data: { ...(e.data as object), href: "cut" } } : e;
  for await (const b of windowEvents(stored(RECORDING), window, hrefs)) batches.push(b);
  assert.deepEqual((batches[0].events[0].data as { href: string }).href, "cut");
});
