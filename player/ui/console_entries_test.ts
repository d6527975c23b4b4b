import assert from "node:assert/strict";
import { consoleEntries, currentEntry, levelCounts } from "./console_entries.ts";

const START = 1_000;
const log = (t: number, level: string, payload: unknown[]) => ({
  type: 6,
  timestamp: START + t,
  data: { plugin: "rrweb/console@1", payload: { level, trace: [], payload } },
});

Deno.test("console: type 6 console events become rows with level, arguments and offset", () => {
  const events = [
    log(900, "warn", ['"deprecated \\"x\\""']),
    { type: 3, timestamp: START + 10, data: { source: 1 } },
    log(100, "log", ['"[app] state"', '{"a":[1,2]}', "42"]),
    { type: 6, timestamp: START + 5, data: { plugin: "other/plugin@1", payload: {} } },
    log(200, "assert", ["false"]),
  ];
  assert.deepEqual(consoleEntries(events, START), [
    { offset: 100, level: "log", args: ["[app] state", '{"a":[1,2]}', "42"] },
    { offset: 200, level: "error", args: ["false"] },
    { offset: 900, level: "warn", args: ['deprecated "x"'] },
  ]);
});

Deno.test("console: counts per level and the entry current at a moment", () => {
  const entries = consoleEntries(
    [log(10, "info", []), log(20, "error", []), log(30, "error", []), log(40, "debug", [])],
    START,
  );
  assert.deepEqual(levelCounts(entries), { log: 0, info: 1, warn: 0, error: 2, debug: 1 });
  assert.equal(currentEntry(entries, 5), -1);
  assert.equal(currentEntry(entries, 10), 0);
  assert.equal(currentEntry(entries, 35), 2);
  assert.equal(currentEntry(entries, 1e9), 3);
});

Deno.test("console: an error keeps its stack frames; other levels do not", () => {
  const trace = ["pay (https://s.test/a.js:1:2)", "https://s.test/a.js:9:1"];
  const at = (level: string) => ({
    type: 6,
    timestamp: START + 5,
    data: { plugin: "rrweb/console@1", payload: { level, trace, payload: ['"boom"'] } },
  });
  assert.deepEqual(consoleEntries([at("error"), at("warn")], START), [
    { offset: 5, level: "error", args: ["boom"], stack: trace },
    { offset: 5, level: "warn", args: ["boom"] },
  ]);
});
