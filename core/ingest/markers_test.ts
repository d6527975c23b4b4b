import assert from "node:assert/strict";
import {
  countSignals,
  ERROR_SOURCE_CHARS,
  ERROR_STACK_CHARS,
  extractMarkers,
  MAX_ERROR_MARKERS,
  pathnameOf,
  SIGNAL_AT_WINDOW_MS,
} from "./markers.ts";
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
    { ts: 1, kind: "error", data: { message: "Uncaught Error: boom", stack: "at x" } },
    { ts: 4, kind: "error", data: { message: 'failed: {"code":42} 17', stack: "at x" } },
    { ts: 6, kind: "error", data: { message: "(no message)", stack: "at x" } },
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

Deno.test("markers: an error keeps its stack, source, line and column, bounded", () => {
  const log = {
    level: "error",
    payload: ['"Uncaught TypeError: x is undefined"'],
    trace: ["pay (https://shop.test/app.js:10:5)", "https://shop.test/app.js:2:1", 7],
    source: "https://shop.test/app.js",
    line: 10,
    column: 5,
  };
  const [marker] = extractMarkers([
    { type: 6, timestamp: 1, data: { plugin: "rrweb/console@1", payload: log } },
  ]);
  assert.deepEqual(marker.data, {
    message: "Uncaught TypeError: x is undefined",
    stack: "pay (https://shop.test/app.js:10:5)\nhttps://shop.test/app.js:2:1",
    source: "https://shop.test/app.js",
    line: 10,
    column: 5,
  });
  const huge = {
    ...log,
    trace: Array.from({ length: 100 }, (_, i) => `f${i} (${"u".repeat(80)}:1:1)`),
    source: "s".repeat(ERROR_SOURCE_CHARS + 1),
    line: -1,
    column: 1.5,
  };
  const [cut] = extractMarkers([
    { type: 6, timestamp: 1, data: { plugin: "rrweb/console@1", payload: huge } },
  ]);
  const data = cut.data as Record<string, unknown>;
  assert.equal((data.stack as string).length, ERROR_STACK_CHARS);
  assert.equal((data.source as string).length, ERROR_SOURCE_CHARS);
  assert.equal("line" in data, false);
  assert.equal("column" in data, false);
});

Deno.test("markers: a click signal is dated at its `at` up to 60 s before its event", () => {
  const click = (kind: string, at: unknown, timestamp = 100_000) => ({
    type: 5,
    timestamp,
    data: { tag: `service:${kind}`, payload: { selector: "b", at } },
  });
  const ts = (e: ReturnType<typeof click>) => extractMarkers([e])[0].ts;
  assert.equal(ts(click("dead_click", 97_000)), 97_000);
  assert.equal(ts(click("rage_click", 100_000)), 100_000);
  assert.equal(
    ts(click("dead_click", 100_000 - SIGNAL_AT_WINDOW_MS)),
    100_000 - SIGNAL_AT_WINDOW_MS,
  );
  assert.equal(ts(click("dead_click", 100_000 - SIGNAL_AT_WINDOW_MS - 1)), 100_000);
  assert.equal(ts(click("dead_click", 100_001)), 100_000); // never after its event
  assert.equal(ts(click("dead_click", "97000")), 100_000);
  assert.equal(ts(click("dead_click", 97_000.5)), 100_000);
  assert.equal(ts(click("checkout", 97_000)), 100_000); // other kinds keep their event's time
});

Deno.test("markers: an error's message, stack and source, and any marker's payload, lose URLs' user and password", () => {
  const open = "http://user:pass@127.0.0.1:8123/x";
  const log = {
    level: "error",
    payload: [
      `"Uncaught SyntaxError: Failed to execute 'open' on 'XMLHttpRequest': ${open}"`,
      `{"url":"${open}"}`,
    ],
    trace: [`send (https://u:p@shop.test/app.js:10:5)`],
    source: "https://u:p@shop.test/app.js",
  };
  const markers = extractMarkers([
    { type: 6, timestamp: 1, data: { plugin: "rrweb/console@1", payload: log } },
    {
      type: 5,
      timestamp: 2,
      data: {
        tag: "service:url",
        payload: { url: "https://ann:secret@shop.test/a", nested: [{ u: open }] },
      },
    },
  ]);
  assert.deepEqual(markers.map((m) => m.data), [
    {
      message: "Uncaught SyntaxError: Failed to execute 'open' on 'XMLHttpRequest': " +
        'http://127.0.0.1:8123/x {"url":"http://127.0.0.1:8123/x"}',
      stack: "send (https://shop.test/app.js:10:5)",
      source: "https://shop.test/app.js",
    },
    { url: "https://shop.test/a", nested: [{ u: "http://127.0.0.1:8123/x" }] },
  ]);
  assert.ok(!JSON.stringify(markers).includes("pass"));
});
