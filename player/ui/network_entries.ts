// The Network tab's rows: each request of the recording's `rrweb/network@1` plugin events (as the
// SDK kept them, redacted in the browser, and ingest bounded them), at its real offset from the
// session start, with whether it failed (5xx, or no answer at all).
import type { NetworkRequestDetail } from "@/core/sessions/schema.ts";

/** A request as the API's one with its bodies (the player decodes them with the events). */
export interface NetworkEntry
  extends Omit<NetworkRequestDetail, "index" | "hasRequestBody" | "hasResponseBody"> {
  /** The address's path and query, as the list shows it. */
  path: string;
  failed: boolean;
}

const PLUGIN_EVENT = 6;

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

const num = (v: unknown) => typeof v === "number" && Number.isFinite(v) ? v : null;
const strings = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v)
    ? Object.fromEntries(
      Object.entries(v).filter(([, value]) => typeof value === "string"),
    ) as Record<string, string>
    : undefined;

/** Network rows of the given events (any order in, time order out). */
export function networkEntries(
  events: readonly { type: number; data: unknown; timestamp: number }[],
  sessionStart: number,
): NetworkEntry[] {
  const entries: NetworkEntry[] = [];
  for (const event of events) {
    if (event.type !== PLUGIN_EVENT) continue;
    const data = event.data as { plugin?: unknown; payload?: { requests?: unknown } } | null;
    if (data?.plugin !== "rrweb/network@1" || !Array.isArray(data.payload?.requests)) continue;
    for (const raw of data.payload.requests as Record<string, unknown>[]) {
      if (typeof raw?.name !== "string") continue;
      const status = num(raw.status) ?? 0;
      const start = num(raw.startTime) ?? 0;
      const entry: NetworkEntry = {
        offsetMs: Math.round((num(raw.timestamp) ?? event.timestamp) - sessionStart),
        method: typeof raw.method === "string" ? raw.method : "GET",
        url: raw.name,
        path: pathOf(raw.name),
        status,
        durationMs: Math.max(0, Math.round((num(raw.endTime) ?? start) - start)),
        requestSize: num(raw.requestSize),
        responseSize: num(raw.responseSize),
        failed: status >= 500 || status === 0,
        requestHeaders: strings(raw.requestHeaders),
        responseHeaders: strings(raw.responseHeaders),
      };
      if (typeof raw.requestBody === "string") entry.requestBody = raw.requestBody;
      if (typeof raw.responseBody === "string") entry.responseBody = raw.responseBody;
      entries.push(entry);
    }
  }
  return entries.sort((a, b) => a.offsetMs - b.offsetMs);
}

/** Index of the request at `offset`: the last one started at or before it, or -1. */
export function currentRequest(entries: readonly NetworkEntry[], offset: number): number {
  let low = 0, high = entries.length - 1, found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (entries[mid].offsetMs <= offset) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}
