import assert from "node:assert/strict";
import { Recording } from "./recording.ts";

const event = (type: number, timestamp: number, tag = "") => ({ type, data: { tag }, timestamp });
const span = (id: string) => ({ id, firstTimestamp: 0, lastTimestamp: 0 });

Deno.test("recording: batches merge into one stable timestamp order", () => {
  const recording = new Recording(100);
  recording.add(span("1"), [event(4, 100), event(2, 100), event(3, 150, "a")]);
  recording.add(span("3"), [event(3, 300)]);
  // A late batch overlapping the earlier ones: its events go after equal timestamps.
  recording.add(span("2"), [event(3, 150, "b"), event(3, 120)]);
  assert.deepEqual(
    recording.events.map((e) => [e.timestamp, (e.data as { tag: string }).tag]),
    [[100, ""], [100, ""], [120, ""], [150, "a"], [150, "b"], [300, ""]],
  );
  assert.equal(recording.lastBatchId, "3");
  assert.equal(recording.loadedUntil, 200);
  assert.equal(recording.showable, true);
});

Deno.test("recording: corrupt batches and skipped events are kept for the page to explain", () => {
  const recording = new Recording(0);
  recording.add(span("1"), [event(3, 10), event(3, 40_011)], 2);
  recording.addCorrupt({ id: "2", firstTimestamp: 50_000, lastTimestamp: 60_000 });
  assert.equal(recording.skipped, 2);
  assert.deepEqual(recording.corrupt.map((b) => b.id), ["2"]);
  assert.equal(recording.lastBatchId, "2");
  assert.equal(recording.showable, false);
});

Deno.test("recording: a moment between a Meta and its full snapshot shows the snapshot", () => {
  const recording = new Recording(0);
  recording.add(span("1"), [
    event(4, 0),
    event(2, 10),
    event(3, 500),
    event(5, 1_000, "service:url"),
    event(4, 1_000),
    event(3, 1_020), // an event of the old page, still in the gap
    event(2, 1_034),
    event(3, 2_000),
  ]);
  assert.equal(recording.shownUntil(0), 10);
  assert.equal(recording.shownUntil(5), 10);
  assert.equal(recording.shownUntil(500), 500);
  assert.equal(recording.shownUntil(999), 999);
  assert.equal(recording.shownUntil(1_000), 1_034);
  assert.equal(recording.shownUntil(1_020), 1_034);
  assert.equal(recording.shownUntil(1_034), 1_034);
  assert.equal(recording.shownUntil(1_500), 1_500);
  // The snapshot not loaded yet: the moment itself.
  const partial = new Recording(0);
  partial.add(span("1"), [event(4, 0), event(2, 10), event(4, 1_000)]);
  assert.equal(partial.shownUntil(1_000), 1_000);
});

Deno.test("recording: the pointer at a moment is the last move or click at or before it", () => {
  const recording = new Recording(0);
  const move = (t: number, x: number) => ({
    type: 3,
    data: {
      source: 1,
      positions: [{ x: x - 1, y: 1, id: 5, timeOffset: -20 }, { x, y: 2, id: 5, timeOffset: 0 }],
    },
    timestamp: t,
  });
  const click = (t: number, x: number) => ({
    type: 3,
    data: { source: 2, type: 2, id: 6, x, y: 3 },
    timestamp: t,
  });
  recording.add(span("1"), [
    event(4, 0),
    event(2, 1),
    move(100, 10),
    click(200, 20),
    event(3, 300),
  ]);
  assert.equal(recording.pointerAt(50), null);
  assert.deepEqual(recording.pointerAt(100), { x: 10, y: 2, id: 5 });
  assert.deepEqual(recording.pointerAt(199), { x: 10, y: 2, id: 5 });
  assert.deepEqual(recording.pointerAt(5_000), { x: 20, y: 3, id: 6 });
});

Deno.test("recording: the viewport at a moment is its last Meta's or resize's, stamped at or before it", () => {
  const recording = new Recording(0);
  recording.add(span("1"), [
    { type: 4, data: { width: 1280, height: 800 }, timestamp: 0 },
    { type: 2, data: {}, timestamp: 1 },
    { type: 3, data: { source: 4, width: 1024, height: 768 }, timestamp: 500 },
    { type: 3, data: { source: 3, id: 1, x: 0, y: 10 }, timestamp: 600 },
  ]);
  assert.deepEqual(recording.sizeAt(499), { width: 1280, height: 800 });
  assert.deepEqual(recording.sizeAt(500), { width: 1024, height: 768 });
  assert.deepEqual(recording.sizeAt(700), { width: 1024, height: 768 });
});

Deno.test("recording: the full snapshots' offsets stay in order as batches merge", () => {
  const recording = new Recording(1_000);
  recording.add(span("1"), [event(4, 1_000), event(2, 1_000), event(3, 1_500)]);
  recording.add(span("3"), [event(5, 9_000, "service:url"), event(4, 9_400), event(2, 9_400)]);
  // a late batch between them: its snapshot slots in order
  recording.add(span("2"), [event(4, 5_000), event(2, 5_001)]);
  assert.deepEqual(recording.frames, [0, 4_001, 8_400]);
});
