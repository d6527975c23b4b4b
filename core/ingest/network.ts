// Network events at ingest (docs/decisions.md "Network capture"): each request of an
// `rrweb/network@1` plugin event is checked and bounded — unknown fields left out, credentials'
// headers dropped again, addresses and bodies cut — and a bad one is dropped and counted, never
// the batch. Requests answered 5xx or not at all (status 0) become `network_error` markers.
import { cutBody, headerKeepable, MAX_KEPT_HEADERS } from "@/core/projects/network_limits.ts";
import {
  durationMs,
  isNetworkError,
  isNetworkEvent,
  type NetworkRequest,
  networkRequestSchema,
  recordedRequests,
} from "@/recording/network.ts";
import { NETWORK_PLUGIN } from "@/recording/events.ts";
import { endpointOf } from "./endpoint.ts";
import { cutText, ENDPOINT_CHARS, MARKER_TEXT_CHARS, URL_CHARS } from "./limits.ts";

/** Requests one plugin event may carry; past it the event is dropped. */
export const MAX_REQUESTS_PER_EVENT = 100;
/** A page failing requests in a loop must not turn one batch into thousands of rows. */
export const MAX_NETWORK_ERROR_MARKERS = 50;

const keptHeaders = (all: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(all).filter(([name]) => headerKeepable(name)).slice(0, MAX_KEPT_HEADERS)
      .map(([name, value]) => [name.toLowerCase(), cutText(value, MARKER_TEXT_CHARS)]),
  );

/** A well-formed request (recording/network.ts) as ingest stores it: its texts cut, its headers
 * those a project may keep. Fields keep their places, so the stored JSON is as before. */
function bounded(request: NetworkRequest): NetworkRequest {
  const out = { ...request, name: cutText(request.name, URL_CHARS) };
  if (out.requestHeaders) out.requestHeaders = keptHeaders(out.requestHeaders);
  if (out.responseHeaders) out.responseHeaders = keptHeaders(out.responseHeaders);
  if (out.requestBody !== undefined) out.requestBody = cutBody(out.requestBody);
  if (out.responseBody !== undefined) out.responseBody = cutBody(out.responseBody);
  return out;
}

interface EventLike {
  type: number;
  timestamp: number;
  data?: unknown;
}

export interface NetworkSummary {
  /** The requests kept, each with its event's timestamp. */
  requests: NetworkRequest[];
  /** Requests (or whole events) left out as malformed. */
  dropped: number;
}

/**
 * The events with every network plugin event bounded (its bad requests left out; an event left
 * with none, left out), the requests kept and how many were dropped.
 */
export function boundNetworkEvents<E extends EventLike>(
  events: readonly E[],
): { events: E[]; summary: NetworkSummary } {
  const summary: NetworkSummary = { requests: [], dropped: 0 };
  if (!events.some(isNetworkEvent)) return { events: events as E[], summary };
  const out: E[] = [];
  for (const event of events) {
    if (!isNetworkEvent(event)) {
      out.push(event);
      continue;
    }
    const requests = recordedRequests(event);
    if (!requests || requests.length > MAX_REQUESTS_PER_EVENT) {
      summary.dropped += requests ? requests.length : 1;
      continue;
    }
    const kept: NetworkRequest[] = [];
    for (const request of requests) {
      const parsed = networkRequestSchema.safeParse(request);
      if (parsed.success) kept.push(bounded(parsed.data));
      else summary.dropped++;
    }
    if (!kept.length) continue;
    summary.requests.push(...kept);
    out.push({ ...event, data: { plugin: NETWORK_PLUGIN, payload: { requests: kept } } });
  }
  return { events: out, summary };
}

/** The `network_error` markers of a batch's requests, at most MAX_NETWORK_ERROR_MARKERS. */
export function networkErrorMarkers(requests: readonly NetworkRequest[]) {
  return requests.filter(isNetworkError).slice(0, MAX_NETWORK_ERROR_MARKERS).map((r) => ({
    ts: r.timestamp,
    kind: "network_error",
    data: {
      method: r.method,
      url: r.name,
      endpoint: cutText(endpointOf(r.method, r.name), ENDPOINT_CHARS),
      status: r.status,
      durationMs: durationMs(r),
    },
  }));
}

/** The batch's failing requests (all, not only those marked) and its slowest request's ms. */
export function networkCounts(requests: readonly NetworkRequest[]) {
  let errors = 0, maxRequestMs = 0;
  for (const r of requests) {
    if (isNetworkError(r)) errors++;
    maxRequestMs = Math.max(maxRequestMs, durationMs(r));
  }
  return { errors, maxRequestMs };
}
