// One recorded request of rrweb's network plugin (events.ts NETWORK_PLUGIN): the one schema of what
// the SDK's network bundle sends (sdk/network/requests.ts), which ingest bounds further and stores
// (core/ingest/network.ts), whether it failed, its duration, and the row the sessions API lists
// (core/sessions/network.ts) and the player's Network tab shows (player/ui/network_entries.ts).
// zod/mini, so the player's bundle takes only what this schema uses.
import * as z from "zod/mini";
import { EventType } from "@rrweb/types";
import { NETWORK_PLUGIN } from "./events.ts";

/** 2^31 - 1: a duration is stored as an int4. */
const MAX_MS = 2_147_483_647;
const headers = z.record(z.string().check(z.maxLength(100)), z.string());
const time = z.number().check(z.minimum(0), z.maximum(1e12));
const bytes = z.int().check(z.minimum(0), z.maximum(Number.MAX_SAFE_INTEGER));
const body = z.string().check(z.maxLength(4 * 1024 * 1024));

/** One recorded request; unknown fields are left out, the method upper-cased. */
export const networkRequestSchema = z.object({
  name: z.string().check(z.minLength(1), z.maxLength(65_536)),
  method: z.pipe(
    z.string().check(z.regex(/^[A-Za-z-]{1,16}$/)),
    z.transform((m: string) => m.toUpperCase()),
  ),
  initiatorType: z.enum(["fetch", "xmlhttprequest"]),
  status: z.int().check(z.minimum(0), z.maximum(999)),
  startTime: time,
  endTime: time,
  timestamp: z.int().check(z.minimum(0), z.maximum(1e14)),
  requestSize: z.optional(bytes),
  responseSize: z.optional(bytes),
  requestHeaders: z.optional(headers),
  responseHeaders: z.optional(headers),
  requestBody: z.optional(body),
  responseBody: z.optional(body),
}).check(z.refine((r) => r.endTime >= r.startTime, { message: "ends before it starts" }));
export type NetworkRequest = z.output<typeof networkRequestSchema>;

interface EventLike {
  type: number;
  data?: unknown;
}

/** Whether an event is a network plugin event. */
export function isNetworkEvent(event: EventLike): boolean {
  return event.type === EventType.Plugin &&
    (event.data as { plugin?: unknown } | null)?.plugin === NETWORK_PLUGIN;
}

/** A network plugin event's requests as recorded (unchecked), or null when it has no list. */
export function recordedRequests(event: EventLike): unknown[] | null {
  const requests = (event.data as { payload?: { requests?: unknown } } | null)?.payload?.requests;
  return Array.isArray(requests) ? requests : null;
}

/** The well-formed requests of a network plugin event, in their order (the bad ones left out). */
export function networkRequests(event: EventLike): NetworkRequest[] {
  const requests: NetworkRequest[] = [];
  for (const raw of recordedRequests(event) ?? []) {
    const parsed = networkRequestSchema.safeParse(raw);
    if (parsed.success) requests.push(parsed.data);
  }
  return requests;
}

/** A request that failed: answered 5xx, or not answered at all (status 0). */
export function isNetworkError(request: { status: number }): boolean {
  return request.status >= 500 || request.status === 0;
}

export const durationMs = (r: NetworkRequest) =>
  Math.min(MAX_MS, Math.round(r.endTime - r.startTime));

/** A request as a row of a list: at its offset from the session's start, without its bodies. */
export interface NetworkRow {
  offsetMs: number;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  requestSize: number | null;
  responseSize: number | null;
  requestHeaders?: Record<string, string>;
  responseHeaders?: Record<string, string>;
}

export function networkRow(r: NetworkRequest, sessionStart: number): NetworkRow {
  const row: NetworkRow = {
    offsetMs: Math.round(r.timestamp - sessionStart),
    method: r.method,
    url: r.name,
    status: r.status,
    durationMs: durationMs(r),
    requestSize: r.requestSize ?? null,
    responseSize: r.responseSize ?? null,
  };
  if (r.requestHeaders) row.requestHeaders = r.requestHeaders;
  if (r.responseHeaders) row.responseHeaders = r.responseHeaders;
  return row;
}
