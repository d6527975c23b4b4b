import assert from "node:assert/strict";
import type { RecordedEvent } from "@/recording/decode.ts";
import { WindowStart } from "./window_start.ts";

const T0 = 1_700_000_000_000;
const START = T0 + 40_000;
const meta = (t: number): RecordedEvent => ({
  type: 4,
  timestamp: T0 + t,
  data: { href: "https://shop.test/reset?reset_token=RT", width: 800, height: 600 },
});
const el = (id: number, tagName: string, childNodes: unknown[] = [], attributes = {}) => ({
  type: 2,
  id,
  tagName,
  attributes,
  childNodes,
});
/** html(2) > body(3) > [input#10, p#11, div#12 (a scrolled box)] */
const snapshot = (t: number): RecordedEvent => ({
  type: 2,
  timestamp: T0 + t,
  data: {
    initialOffset: { left: 0, top: 0 },
    node: {
      type: 0,
      id: 1,
      childNodes: [
        el(2, "html", [el(3, "body", [el(10, "input"), el(11, "p"), el(12, "div")])]),
      ],
    },
  },
});
const incremental = (t: number, data: object): RecordedEvent => ({
  type: 3,
  timestamp: T0 + t,
  data,
});
const mutation = (t: number, data: object) =>
  incremental(t, { source: 0, texts: [], attributes: [], removes: [], adds: [], ...data });

function startOf(events: RecordedEvent[], maxNodes?: number): WindowStart {
  const start = new WindowStart(START, maxNodes);
  for (const event of events) start.push(event);
  return start;
}

Deno.test("window start: the page as it stood, every event stamped at the start and none of the typing before it", () => {
  const events = startOf([
    meta(0),
    snapshot(1),
    mutation(10_000, {
      adds: [{ parentId: 11, nextId: null, node: { type: 3, id: 13, textContent: "Added at 10" } }],
    }),
    incremental(12_000, { source: 5, id: 10, text: "draft-one", isChecked: false }),
    incremental(20_000, { source: 5, id: 10, text: "final-answer", isChecked: false }),
    incremental(21_000, { source: 3, id: 12, x: 0, y: 300 }),
    incremental(22_000, { source: 3, id: 1, x: 0, y: 50 }),
    incremental(23_000, { source: 8, id: 14, adds: [{ rule: "p{color:red}", index: 0 }] }),
    incremental(24_000, { source: 1, positions: [{ x: 5, y: 6, id: 3, timeOffset: 0 }] }),
    incremental(25_000, { source: 4, width: 1024, height: 700 }),
  ]).events();
  assert.ok(events.every((e) => e.timestamp === START), "all stamped at the start");
  assert.deepEqual(events.map((e) => [e.type, (e.data as { source?: number }).source]), [
    [4, undefined],
    [2, undefined],
    [3, 5], // the input's value
    [3, 3], // the box's scroll
    [3, 8], // the style rule, carried
    [3, 1], // the pointer
  ]);
  assert.deepEqual(events[0].data, {
    href: "https://shop.test/reset?reset_token=RT", // cut by the link's map, not here
    width: 1024,
    height: 700,
  });
  const text = JSON.stringify(events);
  assert.ok(text.includes("Added at 10") && text.includes("final-answer"));
  assert.ok(!text.includes("draft-one"), "only the value as it stood at the start");
  const snapshotData = events[1].data as { initialOffset: unknown };
  assert.deepEqual(snapshotData.initialOffset, { left: 0, top: 50 });
  assert.deepEqual(events[3].data, { source: 3, id: 12, x: 0, y: 300 });
});

Deno.test("window start: a text set on an element gets an id of its own, below every recorded one", () => {
  const events = startOf([
    meta(0),
    snapshot(1),
    mutation(5_000, { texts: [{ id: 11, value: "whole text" }] }),
  ]).events();
  const p =
    (events[1].data as { node: { childNodes: { childNodes: { childNodes: unknown[] }[] }[] } })
      .node.childNodes[0].childNodes[0].childNodes[1] as { childNodes: { id: number }[] };
  assert.equal(p.childNodes.length, 1);
  assert.ok(p.childNodes[0].id <= -1_000_000_000);
});

Deno.test("window start: a Meta whose snapshot comes at or after the start is sent alone; nothing before any snapshot", () => {
  const pending = startOf([meta(0), snapshot(1), meta(39_999)]).events();
  assert.deepEqual(pending.map((e) => e.type), [4]);
  assert.equal(pending[0].timestamp, START);
  assert.deepEqual(startOf([meta(0)]).events().map((e) => e.type), [4]);
  assert.deepEqual(startOf([]).events(), []);
  assert.deepEqual(startOf([incremental(5, { source: 3, id: 1, x: 0, y: 9 })]).events(), []);
});

Deno.test("window start: past its node bound nothing at all (the link starts at its window's first snapshot)", () => {
  // The snapshot holds 6 nodes (document, html, body, input, p, div).
  for (const [maxNodes, types] of [[5, []], [6, [4, 2]], [7, [4, 2]]] as const) {
    const start = startOf([meta(0), snapshot(1)], maxNodes);
    assert.deepEqual(start.events().map((e) => e.type), types, `bound ${maxNodes}`);
    assert.equal(start.failure, maxNodes < 6 ? "too-many-nodes" : null);
  }
});

Deno.test("window start: a frame's document comes as an add to its frame after the snapshot, as rrweb records it", () => {
  const frameDocument = {
    type: 0,
    id: 61,
    childNodes: [el(62, "html", [el(63, "body", [el(64, "input")])])],
  };
  const events = startOf([
    meta(0),
    snapshot(1),
    mutation(5_000, { adds: [{ parentId: 3, nextId: null, node: el(60, "iframe") }] }),
    mutation(5_001, { adds: [{ parentId: 60, nextId: null, node: frameDocument }] }),
    incremental(6_000, { source: 5, id: 64, text: "inside", isChecked: false }),
  ]).events();
  assert.deepEqual(events.map((e) => [e.type, (e.data as { source?: number }).source]), [
    [4, undefined],
    [2, undefined],
    [3, 0],
    [3, 5],
  ]);
  const snapshotText = JSON.stringify(events[1].data);
  assert.ok(snapshotText.includes('"tagName":"iframe"') && !snapshotText.includes('"id":61'));
  const add = (events[2].data as { adds: { parentId: number; node: { id: number } }[] }).adds;
  assert.deepEqual(add.map((a) => [a.parentId, a.node.id]), [[60, 61]]);
  assert.ok(JSON.stringify(add).includes('"id":64'), "the document whole");
});
