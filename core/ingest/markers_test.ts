import assert from "node:assert/strict";
import { extractMarkers, pathnameOf } from "./markers.ts";

Deno.test("markers: only service:* custom events with a suffix become markers", () => {
  const markers = extractMarkers([
    { type: 5, timestamp: 1, data: { tag: "service:url", payload: { url: "u", pathname: "/" } } },
    { type: 5, timestamp: 2, data: { tag: "service:identity", payload: { userId: "x" } } },
    { type: 5, timestamp: 3, data: { tag: "service:checkout" } },
    { type: 5, timestamp: 4, data: { tag: "service:" } },
    { type: 5, timestamp: 5, data: { tag: "other:url", payload: {} } },
    { type: 5, timestamp: 6, data: null },
    { type: 3, timestamp: 7, data: { tag: "service:url" } },
  ]);
  assert.deepEqual(markers, [
    { ts: 1, kind: "url", data: { url: "u", pathname: "/" } },
    { ts: 2, kind: "identity", data: { userId: "x" } },
    { ts: 3, kind: "checkout", data: null },
  ]);
});

Deno.test("markers: pathnameOf reads the path of absolute URLs and falls back to /", () => {
  assert.equal(pathnameOf("https://shop.test/a/b?c=1#d"), "/a/b");
  assert.equal(pathnameOf("not a url"), "/");
});
