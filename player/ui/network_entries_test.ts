import assert from "node:assert/strict";
import { currentRequest, networkEntries } from "./network_entries.ts";
import { LCP_SHOWN_MS, lcpAt } from "./lcp_outline.ts";
import { buildHistory } from "./history.ts";

const START = 1_700_000_000_000;
const event = (requests: unknown[], timestamp: number) => ({
  type: 6,
  timestamp,
  data: { plugin: "rrweb/network@1", payload: { requests } },
});

Deno.test("network entries: each request at its own start, failures marked, in time order", () => {
  const entries = networkEntries([
    event([
      {
        name: "https://a.test/api/b?x=1",
        method: "GET",
        status: 200,
        startTime: 5,
        endTime: 25,
        timestamp: START + 900,
      },
      {
        name: "https://a.test/api/a",
        method: "POST",
        status: 503,
        startTime: 0,
        endTime: 40,
        timestamp: START + 100,
      },
    ], START + 1000),
    event([{ name: "https://a.test/api/c", status: 0, timestamp: START + 500 }], START + 1200),
    { type: 6, timestamp: START, data: { plugin: "rrweb/console@1", payload: {} } },
  ], START);
  assert.deepEqual(entries.map((e) => [e.offsetMs, e.path, e.status, e.durationMs, e.failed]), [
    [100, "/api/a", 503, 40, true],
    [500, "/api/c", 0, 0, true],
    [900, "/api/b?x=1", 200, 20, false],
  ]);
  assert.equal(currentRequest(entries, 99), -1);
  assert.equal(currentRequest(entries, 100), 0);
  assert.equal(currentRequest(entries, 899), 1);
  assert.equal(currentRequest(entries, 5000), 2);
});

Deno.test("LCP outline: shown from the LCP moment for LCP_SHOWN_MS, not before or after", () => {
  const markers = [
    {
      timestamp: START + 5000,
      kind: "web_vital",
      data: { name: "lcp", value: 5000, rating: "poor", selector: "#hero" },
    },
    {
      timestamp: START + 100,
      kind: "web_vital",
      data: { name: "fcp", value: 100, rating: "good" },
    },
  ];
  assert.equal(lcpAt(markers, 4999, START), null);
  assert.deepEqual(lcpAt(markers, 5000, START), {
    offset: 5000,
    selector: "#hero",
    label: "LCP 5.0 s poor",
  });
  assert.notEqual(lcpAt(markers, 5000 + LCP_SHOWN_MS, START), null);
  assert.equal(lcpAt(markers, 5001 + LCP_SHOWN_MS, START), null);
});

Deno.test("history: a failed request is a row with its endpoint and status", () => {
  const sections = buildHistory(
    [
      {
        timestamp: START + 2000,
        kind: "network_error",
        data: { endpoint: "POST /api/login", status: 500 },
      },
      { timestamp: START + 3000, kind: "network_error", data: { endpoint: "GET /x", status: 0 } },
    ],
    [],
    START,
    10_000,
  );
  assert.deepEqual(
    sections[0].markers.map((m) => [m.kind, m.label, m.start]),
    [["network_error", "POST /api/login → 500", 2000], [
      "network_error",
      "GET /x → no answer",
      3000,
    ]],
  );
});
