import assert from "node:assert/strict";
import { isReplayable } from "./event_check.ts";

Deno.test("event check: rrweb 2 kinds pass; unknown types, sources and shapes do not", () => {
  const ok = [
    { type: 0, data: {} },
    { type: 2, data: { node: { type: 0, childNodes: [] }, initialOffset: { top: 0, left: 0 } } },
    { type: 3, data: { source: 0, adds: [], removes: [], texts: [], attributes: [] } },
    { type: 3, data: { source: 16, define: {} } },
    { type: 4, data: { href: "https://a.test/", width: 1280, height: 800 } },
    { type: 5, data: { tag: "service:url", payload: {} } },
    { type: 6, data: { plugin: "rrweb/console@1", payload: {} } },
  ];
  for (const event of ok) assert.equal(isReplayable(event), true, JSON.stringify(event));
  const unknown = [
    { type: 7, data: {} },
    { type: 2, data: {} },
    { type: 3, data: { source: 17 } },
    { type: 3, data: null },
    { type: 4, data: { href: "x" } },
    { type: 5, data: { payload: {} } },
  ];
  for (const event of unknown) assert.equal(isReplayable(event), false, JSON.stringify(event));
});
