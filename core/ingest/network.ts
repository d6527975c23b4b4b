// Network events at ingest (docs/decisions.md "Network capture"): each request of an
// `rrweb/network@1` plugin event is checked and bounded — unknown fields left out, credentials'
// headers dropped again, addresses and bodies cut — and a bad one is dropped and counted, never
// the batch. Requests answered 5xx or not at all (status 0) become `network_error` markers.
import { z } from "zod";
import { cutBody, headerKeepable, MAX_KEPT_HEADERS } from "@/core/projects/network_limits.ts";
import { endpointOf } from "./endpoint.ts";
import { cutText, ENDPOINT_CHARS, MARKER_TEXT_CHARS, URL_CHARS } from "./limits.ts";

export const NETWORK_PLUGIN = "rrweb/network@1";
/** Requests one plugin event may carry; past it the event is dropped. */
export const MAX_REQUESTS_PER_EVENT = 100;
/** A page failing requests in a loop must not turn one batch into thousands of rows. */
export const MAX_NETWORK_ERROR_MARKERS = 50;
const PLUGIN_EVENT = 6;
const MAX_MS = 2_147_483_647;

const headers = z.record(z.string().max(100), z.string()).transform((all) =>
  Object.fromEntries(
    Object.entries(all).filter(([name]) => headerKeepable(name)).slice(0, MAX_KEPT_HEADERS)
      .map(([name, value]) => [name.toLowerCase(), cutText(value, MARKER_TEXT_CHARS)]),
  )
);
const time = z.number().finite().min(0).max(1e12);
const bytes = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** One recorded request as the SDK's network bundle sends it (sdk/network/requests.ts). */
export const networkRequestSchema = z.object({
  name: z.string().min(1).max(65_536).transform((url) => cutText(url, URL_CHARS)),
  method: z.string().regex(/^[A-Za-z-]{1,16}$/).transform((m) => m.toUpperCase()),
  initiatorType: z.enum(["fetch", "xmlhttprequest"]),
  status: z.number().int().min(0).max(999),
  startTime: time,
  endTime: time,
  timestamp: z.number().int().nonnegative().max(1e14),
  requestSize: bytes.optional(),
  responseSize: bytes.optional(),
  requestHeaders: headers.optional(),
  responseHeaders: headers.optional(),
  requestBody: z.string().max(4 * 1024 * 1024).transform(cutBody).optional(),
  responseBody: z.string().max(4 * 1024 * 1024).transform(cutBody).optional(),
}).refine((r) => r.endTime >= r.startTime, { message: "ends before it starts" });
export type NetworkRequest = z.output<typeof networkRequestSchema>;

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

/** Whether an event is a network plugin event. */
export function isNetworkEvent(event: EventLike): boolean {
  return event.type === PLUGIN_EVENT &&
    (event.data as { plugin?: unknown } | null)?.plugin === NETWORK_PLUGIN;
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
    const requests = (event.data as { payload?: { requests?: unknown } }).payload?.requests;
    if (!Array.isArray(requests) || requests.length > MAX_REQUESTS_PER_EVENT) {
      summary.dropped += Array.isArray(requests) ? requests.length : 1;
      continue;
    }
    const kept: NetworkRequest[] = [];
    for (const request of requests) {
      const parsed = networkRequestSchema.safeParse(request);
      if (parsed.success) kept.push(parsed.data);
      else summary.dropped++;
    }
    if (!kept.length) continue;
    summary.requests.push(...kept);
    out.push({ ...event, data: { plugin: NETWORK_PLUGIN, payload: { requests: kept } } });
  }
  return { events: out, summary };
}

/** A request that failed: answered 5xx, or not answered at all (status 0). */
export function isNetworkError(request: { status: number }): boolean {
  return request.status >= 500 || request.status === 0;
}

export const durationMs = (r: NetworkRequest) =>
  Math.min(MAX_MS, Math.round(r.endTime - r.startTime));

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
