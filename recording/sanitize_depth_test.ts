// Adds deeper than the HTML parser's bound never reach the player or the server's model: a DOM
// built tens of thousands deep by mutations crashed the viewer's tab.
import assert from "node:assert/strict";
import { MAX_DOM_DEPTH, RecordingSanitizer } from "./sanitize.ts";

const div = (id: number, childNodes: unknown[] = []) => ({
  type: 2,
  id,
  tagName: "div",
  attributes: {},
  childNodes,
});
/** A snapshot of document (depth 0) > html (1) > body (2). */
const snapshot = () => ({
  type: 2,
  timestamp: 1,
  data: {
    node: {
      type: 0,
      id: 1,
      childNodes: [{ ...div(2, [div(3)]), tagName: "html" }],
    },
  },
});
const mutation = (adds: { parentId: number; node: unknown }[]) => ({
  type: 3,
  timestamp: 2,
  data: { source: 0, adds, removes: [], texts: [], attributes: [] },
});
/** Ids 4, 5, … each the child of the one before, under the body (3): id n lands at depth n - 1. */
const chain = (from: number, to: number) =>
  Array.from(
    { length: to - from + 1 },
    (_, i) => ({ parentId: from + i - 1, node: div(from + i) }),
  );
const keptIds = (event: ReturnType<typeof mutation>) =>
  event.data.adds.map((a) => (a.node as { id: number }).id);

Deno.test("sanitize depth: a chain of adds in one mutation stops at MAX_DOM_DEPTH, whatever their order", () => {
  const last = MAX_DOM_DEPTH + 1; // its depth: MAX_DOM_DEPTH
  for (const order of ["in order", "reversed"]) {
    const sanitizer = new RecordingSanitizer();
    sanitizer.clean(snapshot());
    const adds = chain(4, last + 2);
    const event = mutation(order === "reversed" ? adds.reverse() : adds);
    sanitizer.clean(event);
    const kept = keptIds(event).sort((a, b) => a - b);
    assert.equal(kept.at(-1), last, order); // at the bound: kept
    assert.equal(kept.length, last - 3, order); // one past it and below: dropped
  }
});

Deno.test("sanitize depth: adds one per mutation, tens of thousands deep, keep only the first 512 levels", () => {
  const sanitizer = new RecordingSanitizer();
  sanitizer.clean(snapshot());
  let kept = 0;
  for (let id = 4; id < 30_000; id++) {
    const event = mutation([{ parentId: id - 1, node: div(id) }]);
    sanitizer.clean(event);
    kept += event.data.adds.length;
  }
  assert.equal(kept, MAX_DOM_DEPTH - 2);
});

Deno.test("sanitize depth: an added subtree and a snapshot are cut below the bound; an unknown parent is left to rrweb", () => {
  const sanitizer = new RecordingSanitizer();
  const deep = (depth: number, id: number): ReturnType<typeof div> =>
    depth === 0 ? div(id) : div(id, [deep(depth - 1, id + 1)]);
  const snap = snapshot();
  // html (1) > body (2) > 600 levels
  (snap.data.node.childNodes[0].childNodes[0] as { childNodes: unknown[] }).childNodes = [
    deep(600, 100),
  ];
  sanitizer.clean(snap);
  let node = snap.data.node as { childNodes?: unknown[] };
  let depth = 0;
  while (node.childNodes?.length) {
    node = node.childNodes[0] as typeof node;
    depth++;
  }
  assert.equal(depth, MAX_DOM_DEPTH);

  const unknown = mutation([{ parentId: 99_999, node: div(5_000) }]);
  sanitizer.clean(unknown);
  assert.deepEqual(keptIds(unknown), [5_000]);
});
