import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { frameAt, type StoredBatch } from "./frame_at.ts";
import { MOMENT_LIMITS } from "./moment_frame.ts";
import { applyStyleDiff } from "./style_attribute.ts";

const T0 = 1_700_000_000_000;
const meta = (t: number, width = 800, height = 600) => ({
  type: 4,
  timestamp: t,
  data: { href: "https://shop.test/", width, height },
});
const el = (id: number, tagName: string, childNodes: unknown[] = [], attributes = {}) => ({
  type: 2,
  id,
  tagName,
  attributes,
  childNodes,
});
const text = (id: number, textContent: string) => ({ type: 3, id, textContent });
/** html(2) > body(3) > div#main(4) > "Hello"(5) */
const snapshot = (t: number, initialOffset = { left: 0, top: 0 }) => ({
  type: 2,
  timestamp: t,
  data: {
    initialOffset,
    node: {
      type: 0,
      id: 1,
      childNodes: [
        el(2, "html", [el(3, "body", [el(4, "div", [text(5, "Hello")], { id: "main" })])]),
      ],
    },
  },
});
const mutation = (t: number, data: object) => ({
  type: 3,
  timestamp: t,
  data: { source: 0, texts: [], attributes: [], removes: [], adds: [], ...data },
});

function batches(events: { timestamp: number }[]): AsyncIterable<StoredBatch> {
  return (async function* () {
    for (let i = 0; i < events.length; i += 2) {
      const part = events.slice(i, i + 2);
      yield {
        firstTimestamp: part[0].timestamp,
        lastTimestamp: part.at(-1)!.timestamp,
        bytes: [new Uint8Array(gzipSync(JSON.stringify(part)))],
      };
    }
  })();
}

const body = (html: string) => html.slice(html.indexOf("<body>") + 6, html.indexOf("</body>"));

Deno.test("frame at a moment: events stamped at or before it are applied, later ones are not", async () => {
  const events = [
    meta(T0),
    snapshot(T0 + 1),
    mutation(T0 + 100, { texts: [{ id: 5, value: "Bye" }] }),
    mutation(T0 + 200, { attributes: [{ id: 4, attributes: { class: "late" } }] }),
  ];
  const at100 = await frameAt(batches(events), T0 + 100);
  assert.equal(body(at100.frame!.html), '<div id="main">Bye</div>');
  const at99 = await frameAt(batches(events), T0 + 99);
  assert.equal(body(at99.frame!.html), '<div id="main">Hello</div>');
  const at200 = await frameAt(batches(events), T0 + 200);
  assert.equal(body(at200.frame!.html), '<div id="main" class="late">Bye</div>');
});

Deno.test("frame at a moment: adds wait for their parent and next sibling, removes go first", async () => {
  const events = [
    meta(T0),
    snapshot(T0 + 1),
    mutation(T0 + 10, {
      removes: [{ parentId: 4, id: 5 }],
      adds: [
        // the <b> goes before the <i>, which is added after it in the list
        { parentId: 6, nextId: null, node: text(8, "x") },
        { parentId: 4, nextId: 7, node: el(6, "b") },
        { parentId: 4, nextId: null, node: el(7, "i") },
      ],
    }),
  ];
  const { frame } = await frameAt(batches(events), T0 + 10);
  assert.equal(body(frame!.html), '<div id="main"><b>x</b><i></i></div>');
});

Deno.test("frame at a moment: an add of a node already there, as recorded, moves it (rrweb reuses it)", async () => {
  const events = [
    meta(T0),
    snapshot(T0 + 1),
    mutation(T0 + 10, {
      adds: [{ parentId: 3, nextId: null, node: el(4, "div", [], { id: "main" }) }],
    }),
  ];
  const { frame } = await frameAt(batches(events), T0 + 10);
  assert.equal(body(frame!.html), '<div id="main">Hello</div>');
  // Changed since (rrweb compares with the node as recorded): still moved, change kept.
  const changed = [
    ...events.slice(0, 2),
    mutation(T0 + 5, { attributes: [{ id: 4, attributes: { class: "x" } }] }),
    events[2],
  ];
  const moved = await frameAt(batches(changed), T0 + 10);
  assert.equal(body(moved.frame!.html), '<div id="main" class="x">Hello</div>');
  // Recorded otherwise: rrweb builds a second one.
  const other = [
    ...events.slice(0, 2),
    mutation(T0 + 10, {
      adds: [{ parentId: 3, nextId: null, node: el(4, "div", [], { id: "other" }) }],
    }),
  ];
  const again = await frameAt(batches(other), T0 + 10);
  assert.equal(body(again.frame!.html), '<div id="main">Hello</div><div id="other"></div>');
});

Deno.test("frame at a moment: input values, checked boxes, style diffs and viewport size", async () => {
  const events = [
    meta(T0),
    snapshot(T0 + 1),
    mutation(T0 + 2, {
      adds: [
        { parentId: 4, nextId: null, node: el(6, "input", [], { type: "checkbox" }) },
        { parentId: 4, nextId: null, node: el(7, "input", [], { style: "color: red" }) },
      ],
    }),
    { type: 3, timestamp: T0 + 3, data: { source: 5, id: 6, text: "on", isChecked: true } },
    { type: 3, timestamp: T0 + 4, data: { source: 5, id: 7, text: "typed", isChecked: false } },
    mutation(T0 + 5, {
      attributes: [{ id: 7, attributes: { style: { color: false, width: ["5px", "important"] } } }],
    }),
    { type: 3, timestamp: T0 + 6, data: { source: 4, width: 1024, height: 700 } },
  ];
  const { frame } = await frameAt(batches(events), T0 + 6);
  assert.equal(
    body(frame!.html),
    '<div id="main">Hello<input type="checkbox" value="on" checked="">' +
      '<input style="width: 5px !important;" value="typed"></div>',
  );
  assert.deepEqual([frame!.width, frame!.height], [1024, 700]);
});

Deno.test("frame at a moment: scrolls are marked for the frame's CSS; the page's last, a box's first", async () => {
  const events = [
    meta(T0),
    snapshot(T0 + 1, { left: 0, top: 40 }),
    { type: 3, timestamp: T0 + 2, data: { source: 3, id: 4, x: 0, y: 120 } },
  ];
  const html = (await frameAt(batches(events), T0 + 2)).frame!.html;
  assert.match(
    body(html),
    /^<div id="main"><div data-playhead-scroll="" style="position: relative;[^"]*top: 120px;[^"]*scroll-initial-target: nearest/,
  );
  assert.match(
    body(html),
    /Hello<\/div><div data-playhead-scroll="" style="position: absolute; left: 0px; top: 40px;[^"]*scroll-initial-target: nearest[^"]*"><\/div>$/,
  );
  // Back at the top: no mark.
  const top = [...events, { type: 3, timestamp: T0 + 3, data: { source: 3, id: 4, x: 0, y: 0 } }];
  assert.doesNotMatch(body((await frameAt(batches(top), T0 + 3)).frame!.html), /top: 120px/);
});

Deno.test("frame at a moment: a Meta before the moment shows the snapshot that follows it", async () => {
  const events = [meta(T0), snapshot(T0 + 1), meta(T0 + 50, 640, 480), {
    ...snapshot(T0 + 60),
    data: {
      ...snapshot(0).data,
      node: {
        type: 0,
        id: 1,
        childNodes: [el(2, "html", [el(3, "body", [text(9, "Next page")])])],
      },
    },
  }];
  const { frame } = await frameAt(batches(events), T0 + 55);
  assert.equal(body(frame!.html), "Next page");
  assert.equal(frame!.width, 640);
});

Deno.test("frame at a moment: past a bound there is none, with the reason", async () => {
  const events = [
    meta(T0),
    snapshot(T0 + 1),
    mutation(T0 + 2, { texts: [{ id: 5, value: "x".repeat(2_000) }] }),
  ];
  // nodes: the snapshot holds 5
  assert.equal(
    (await frameAt(batches(events), T0 + 2, { ...MOMENT_LIMITS, maxNodes: 5 })).failure,
    null,
  );
  assert.equal(
    (await frameAt(batches(events), T0 + 2, { ...MOMENT_LIMITS, maxNodes: 4 })).failure,
    "too-many-nodes",
  );
  // bytes: the JSON read up to the moment
  const size = JSON.stringify(events.slice(0, 2)).length + JSON.stringify(events.slice(2)).length;
  assert.equal(
    (await frameAt(batches(events), T0 + 2, { ...MOMENT_LIMITS, maxBytes: size })).failure,
    null,
  );
  assert.equal(
    (await frameAt(batches(events), T0 + 2, { ...MOMENT_LIMITS, maxBytes: size - 1 })).failure,
    "too-many-bytes",
  );
  // time, on a clock read once at the start and once per event, moving `step` ms a reading: the
  // third event is read 3 × step after the start
  const clock = (step: number) => {
    let now = -step;
    return () => (now += step);
  };
  const limits = { ...MOMENT_LIMITS, maxMs: 60 };
  assert.equal((await frameAt(batches(events), T0 + 2, limits, clock(20))).failure, null);
  assert.equal((await frameAt(batches(events), T0 + 2, limits, clock(21))).failure, "too-slow");
  // the frame's HTML, which the page carries
  const html = (await frameAt(batches(events), T0 + 2)).frame!.html.length;
  const htmlLimit = (maxHtmlChars: number) => ({ ...MOMENT_LIMITS, maxHtmlChars });
  assert.equal((await frameAt(batches(events), T0 + 2, htmlLimit(html))).failure, null);
  assert.equal((await frameAt(batches(events), T0 + 2, htmlLimit(html - 1))).failure, "too-large");
  // a change the model does not follow (a style sheet's rules)
  const rules = [...events, { type: 3, timestamp: T0 + 3, data: { source: 8, id: 4, adds: [] } }];
  assert.equal((await frameAt(batches(rules), T0 + 3)).failure, "unsupported-event");
});

Deno.test("frame at a moment: what runs or navigates is cleaned as in the player", async () => {
  const events = [
    meta(T0),
    snapshot(T0 + 1),
    mutation(T0 + 2, {
      adds: [{
        parentId: 4,
        nextId: null,
        node: el(6, "a", [], { href: "javascript:alert(1)", onclick: "x()" }),
      }],
      attributes: [{ id: 4, attributes: { onmouseover: "x()" } }],
    }),
    mutation(T0 + 3, { attributes: [{ id: 6, attributes: { href: "javascript:evil()" } }] }),
  ];
  const { frame } = await frameAt(batches(events), T0 + 3);
  assert.equal(body(frame!.html), '<div id="main">Hello<a></a></div>');
});

Deno.test("style diff: set, replace (moved last), remove, priority", () => {
  assert.equal(
    applyStyleDiff("margin-left: 5px; margin: 0", { "margin-left": "7px" }),
    "margin: 0; margin-left: 7px;",
  );
  assert.equal(
    applyStyleDiff("color: red; background: url(a;b)", { color: false }),
    "background: url(a;b);",
  );
  assert.equal(applyStyleDiff("", { width: ["5px", "important"] }), "width: 5px !important;");
});
