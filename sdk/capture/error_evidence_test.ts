import assert from "node:assert/strict";
import { FRAME_CHARS, MAX_FRAMES, withErrorEvidence } from "./error_evidence.ts";

const OWN = new URL("./error_evidence.ts", import.meta.url).href;
const consoleError = (trace: unknown[], level = "error") => ({
  type: 6,
  timestamp: 1,
  data: { plugin: "rrweb/console@1", payload: { level, trace, payload: ['"boom"'] } },
});
const logOf = (event: { data: unknown }) =>
  (event.data as { payload: Record<string, unknown> }).payload;

Deno.test("error evidence: the page's own frames, URLs without query, top frame's position", () => {
  const event = withErrorEvidence(consoleError([
    `inner (${OWN}:3:9)`, // the SDK's own frame
    "pay (https://shop.test/app.js?v=2#x:10:5)",
    "chrome-extension://abc/inject.js:1:1",
    "https://shop.test/app.js:2:1",
    "not a frame",
  ]));
  assert.deepEqual(logOf(event), {
    level: "error",
    payload: ['"boom"'],
    trace: ["pay (https://shop.test/app.js:10:5)", "https://shop.test/app.js:2:1"],
    source: "https://shop.test/app.js",
    line: 10,
    column: 5,
  });
});

Deno.test("error evidence: at most 20 frames of 300 characters; other levels untouched", () => {
  const long = Array.from(
    { length: 30 },
    (_, i) => `f${i} (https://s.test/${"a".repeat(400)}.js:1:1)`,
  );
  const { trace } = logOf(withErrorEvidence(consoleError(long))) as { trace: string[] };
  assert.equal(trace.length, MAX_FRAMES);
  assert.ok(trace.every((f) => f.length === FRAME_CHARS));
  const warn = consoleError(["pay (https://s.test/a.js?token=1:1:1)"], "warn");
  assert.deepEqual(logOf(withErrorEvidence(warn)).trace, ["pay (https://s.test/a.js?token=1:1:1)"]);
  assert.deepEqual(logOf(withErrorEvidence(consoleError([]))).trace, []);
});
