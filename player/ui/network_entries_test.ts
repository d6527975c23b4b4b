import assert from "node:assert/strict";
import { currentRequest, networkEntries } from "./network_entries.ts";
import { LCP_SHOWN_MS, lcpAt } from "./lcp_outline.ts";
import { buildHistory } from "./history.ts";
import { EventType } from "@rrweb/types";
import { NETWORK_PLUGIN } from "@/recording/events.ts";

const START = 1_700_000_000_000;
const event = (requests: unknown[], timestamp: number) => ({
  type: EventType.Plugin,
  timestamp,
  data: { plugin: NETWORK_PLUGIN, payload: { requests } },
});
const fetched = { initiatorType: "fetch", method: "GET" };

Deno.test("network entries: each request at its own start, failures marked, in time order", () => {
  const entries = networkEntries([
    event([
      {
        ...fetched,
        name: "https://a.test/api/b?x=1",
        status: 200,
        startTime: 5,
        endTime: 25,
        timestamp: START + 900,
      },
      {
        ...fetched,
        name: "https://a.test/api/a",
        method: "post",
        status: 503,
        startTime: 0,
        endTime: 40,
        timestamp: START + 100,
      },
    ], START + 1000),
    event([
      {
        ...fetched,
        name: "https://a.test/api/c",
        status: 0,
        startTime: 7,
        endTime: 7,
        timestamp: START + 500,
      },
      // Malformed (ends before it starts, no method): left out, as the sessions API leaves it.
      {
        ...fetched,
        name: "https://a.test/x",
        status: 200,
        startTime: 9,
        endTime: 8,
        timestamp: START,
      },
      { name: "https://a.test/y", status: 200, startTime: 1, endTime: 2, timestamp: START },
    ], START + 1200),
    { type: EventType.Plugin, timestamp: START, data: { plugin: "rrweb/console@1", payload: {} } },
  ], START);
  assert.deepEqual(
    entries.map((e) => [e.offsetMs, e.method, e.path, e.status, e.durationMs, e.failed]),
    [
      [100, "POST", "/api/a", 503, 40, true],
      [500, "GET", "/api/c", 0, 0, true],
      [900, "GET", "/api/b?x=1", 200, 20, false],
    ],
  );
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
