import assert from "node:assert/strict";
import { countSignals, extractMarkers, MAX_ERROR_MARKERS, pathnameOf } from "./markers.ts";
import { ERROR_MESSAGE_CHARS } from "./limits.ts";

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

const consoleEvent = (level: string, payload: unknown[], timestamp = 1) => ({
  type: 6,
  timestamp,
  data: { plugin: "rrweb/console@1", payload: { level, trace: ["at x"], payload } },
});

Deno.test("markers: console errors become error markers with their message, others do not", () => {
  const markers = extractMarkers([
    consoleEvent("error", ['"Uncaught Error: boom"'], 1),
    consoleEvent("warn", ['"careful"'], 2),
    consoleEvent("log", ['"hello"'], 3),
    consoleEvent("error", ['"failed:"', '{"code":42}', "17"], 4),
    { type: 6, timestamp: 5, data: { plugin: "other", payload: { level: "error" } } },
    consoleEvent("error", [], 6),
  ]);
  assert.deepEqual(markers, [
    { ts: 1, kind: "error", data: { message: "Uncaught Error: boom" } },
    { ts: 4, kind: "error", data: { message: 'failed: {"code":42} 17' } },
    { ts: 6, kind: "error", data: { message: "(no message)" } },
  ]);
});

Deno.test("markers: error messages are cut to 200 characters with a mark, and 50 per batch", () => {
  const long = "x".repeat(198) + "😀" + "y".repeat(50);
  const events = Array.from(
    { length: 60 },
    (_, i) => consoleEvent("error", [JSON.stringify(long)], i),
  );
  const markers = extractMarkers(events);
  assert.equal(markers.length, MAX_ERROR_MARKERS);
  const message = (markers[0].data as { message: string }).message;
  assert.equal(message, "x".repeat(198) + "…");
  assert.ok(message.length <= ERROR_MESSAGE_CHARS);
});

Deno.test("markers: countSignals counts errors, rage and dead clicks", () => {
  const counts = countSignals([
    { ts: 1, kind: "error", data: null },
    { ts: 2, kind: "rage_click", data: null },
    { ts: 3, kind: "rage_click", data: null },
    { ts: 4, kind: "url", data: null },
    { ts: 5, kind: "dead_click", data: null },
  ]);
  assert.deepEqual(counts, { error: 1, rage_click: 2, dead_click: 1 });
});
