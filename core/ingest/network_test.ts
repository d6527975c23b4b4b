import assert from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { BODY_CUT_MARK, BODY_MAX_CHARS } from "@/core/projects/network_limits.ts";
import { prepareIngest } from "./prepare.ts";
import { boundNetworkEvents, MAX_REQUESTS_PER_EVENT } from "./network.ts";
import { CUT_MARK, ENDPOINT_CHARS, URL_CHARS } from "./limits.ts";
import type { IngestBody } from "./schema.ts";

const T = 1_700_000_000_000;

function request(overrides: Record<string, unknown> = {}) {
  return {
    name: "https://shop.example/api/orders/42",
    method: "GET",
    initiatorType: "fetch",
    status: 200,
    startTime: 100,
    endTime: 340,
    timestamp: T + 100,
    ...overrides,
  };
}

const networkEvent = (requests: unknown[], ts = T + 500) => ({
  type: 6,
  timestamp: ts,
  data: { plugin: "rrweb/network@1", payload: { requests } },
});

function body(events: unknown[]): IngestBody {
  return { sessionId: crypto.randomUUID(), events } as IngestBody;
}

const stored = (prepared: ReturnType<typeof prepareIngest>) =>
  JSON.parse(new TextDecoder().decode(gunzipSync(prepared.batch!.data)));

Deno.test("ingest network: a bad request is dropped and counted, the rest of the batch is kept", () => {
  const events = [
    { type: 3, timestamp: T, data: { source: 2 } },
    networkEvent([request(), request({ status: "500" }), request({ endTime: 1 })]),
    networkEvent([{ nonsense: true }]),
    networkEvent("not a list" as never),
  ];
  const prepared = prepareIngest(body(events));
  assert.equal(prepared.droppedRequests, 4);
  assert.equal(prepared.eventCount, 2);
  const kept = stored(prepared);
  assert.equal(kept[0].type, 3);
  assert.equal(kept[1].data.payload.requests.length, 1);
  assert.equal(kept[1].data.payload.requests[0].status, 200);
});

Deno.test("ingest network: an event with more requests than allowed is dropped, one at the bound kept", () => {
  const at = Array.from({ length: MAX_REQUESTS_PER_EVENT }, () => request());
  assert.equal(boundNetworkEvents([networkEvent(at)]).events.length, 1);
  const over = boundNetworkEvents([networkEvent([...at, request()])]);
  assert.equal(over.events.length, 0);
  assert.equal(over.summary.dropped, MAX_REQUESTS_PER_EVENT + 1);
});

Deno.test("ingest network: credentials' headers and unknown fields are never stored, bodies cut at 150 KB", () => {
  const events = [networkEvent([request({
    requestHeaders: { Authorization: "Bearer S3CR3T", "content-type": "text/plain" },
    responseHeaders: { "set-cookie": "sid=1", "x-csrf-token": "t", accept: "*/*" },
    extra: "S3CR3T",
    responseBody: "x".repeat(BODY_MAX_CHARS + 1),
    requestBody: "y".repeat(BODY_MAX_CHARS),
  })])];
  const prepared = prepareIngest(body(events));
  const [kept] = stored(prepared)[0].data.payload.requests;
  assert.deepEqual(kept.requestHeaders, { "content-type": "text/plain" });
  assert.deepEqual(kept.responseHeaders, { accept: "*/*" });
  assert.equal(kept.extra, undefined);
  assert.equal(kept.responseBody, "x".repeat(BODY_MAX_CHARS) + BODY_CUT_MARK);
  assert.equal(kept.requestBody, "y".repeat(BODY_MAX_CHARS));
  assert.ok(!JSON.stringify(stored(prepared)).includes("S3CR3T"));
});

Deno.test("ingest network: 5xx and status 0 are network_error markers and counted, 499 is not; the slowest request is kept", () => {
  const events = [networkEvent([
    request({ status: 500, method: "post", name: "https://shop.example/api/orders/42?x=1" }),
    request({ status: 0, startTime: 0, endTime: 1200, timestamp: T }),
    request({ status: 499 }),
    request({ status: 200, startTime: 0, endTime: 900 }),
  ])];
  const prepared = prepareIngest(body(events));
  const markers = JSON.parse(prepared.batch!.markersJson);
  assert.deepEqual(markers.map((m: { kind: string }) => m.kind), [
    "network_error",
    "network_error",
  ]);
  assert.deepEqual(markers[0].data, {
    method: "POST",
    url: "https://shop.example/api/orders/42?x=1",
    endpoint: "POST /api/orders/:id",
    status: 500,
    durationMs: 240,
  });
  assert.equal(markers[0].ts, T + 100);
  assert.deepEqual(prepared.batch!.network, { errors: 2, maxRequestMs: 1200, vitals: [] });
});

Deno.test("ingest network: a failing request's endpoint is cut to ENDPOINT_CHARS, its url to URL_CHARS", () => {
  const path = Array.from({ length: 100 }, (_, i) => `part${i % 10}`).join("/");
  const events = [networkEvent([
    request({ status: 503, name: `https://shop.example/${path}?q=${"x".repeat(3_000)}` }),
  ])];
  const [marker] = JSON.parse(prepareIngest(body(events)).batch!.markersJson);
  assert.equal(marker.data.endpoint.length, ENDPOINT_CHARS);
  assert.equal(marker.data.endpoint, `GET /${path}`.slice(0, ENDPOINT_CHARS - 1) + CUT_MARK);
  assert.equal(marker.data.url.length, URL_CHARS);
});

Deno.test("ingest web vitals: ingest rates the value itself and dates the marker at its moment", () => {
  const vital = (payload: unknown) => ({
    type: 5,
    timestamp: T + 10_000,
    data: { tag: "service:web_vital", payload },
  });
  const prepared = prepareIngest(body([
    vital({ name: "lcp", value: 5200, rating: "good", at: T + 5200, selector: "html>body>img" }),
    vital({ name: "cls", value: 0.1, rating: "poor", at: T + 1 }),
    vital({ name: "nope", value: 1 }),
    vital({ name: "inp", value: -1 }),
  ]));
  const markers = JSON.parse(prepared.batch!.markersJson);
  assert.deepEqual(markers, [
    {
      ts: T + 5200,
      kind: "web_vital",
      data: { name: "lcp", value: 5200, rating: "poor", selector: "html>body>img" },
    },
    { ts: T + 1, kind: "web_vital", data: { name: "cls", value: 0.1, rating: "good" } },
  ]);
  assert.deepEqual(prepared.batch!.network!.vitals, ["lcp:poor", "cls:good"]);
});
