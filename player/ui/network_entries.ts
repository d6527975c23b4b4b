// The Network tab's rows: each request of the recording's `rrweb/network@1` plugin events (as the
// SDK kept them, redacted in the browser, and ingest bounded them), at its real offset from the
// session start, with whether it failed (5xx, or no answer at all).
import type { NetworkRequestDetail } from "@/core/sessions/schema.ts";
import {
  isNetworkError,
  isNetworkEvent,
  networkRequests,
  networkRow,
} from "@/recording/network.ts";

/** A request as the API's one with its bodies (the player decodes them with the events). */
export interface NetworkEntry
  extends Omit<NetworkRequestDetail, "index" | "hasRequestBody" | "hasResponseBody"> {
  /** The address's path and query, as the list shows it. */
  path: string;
  failed: boolean;
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}

/** Network rows of the given events (any order in, time order out): the well-formed requests of
 * recording/network.ts's one schema, as the sessions API lists them. */
export function networkEntries(
  events: readonly { type: number; data: unknown; timestamp: number }[],
  sessionStart: number,
): NetworkEntry[] {
  const entries: NetworkEntry[] = [];
  for (const event of events) {
    if (!isNetworkEvent(event)) continue;
    for (const request of networkRequests(event)) {
      const row = networkRow(request, sessionStart);
      const entry: NetworkEntry = {
        ...row,
        path: pathOf(row.url),
        failed: isNetworkError(request),
      };
      if (request.requestBody !== undefined) entry.requestBody = request.requestBody;
      if (request.responseBody !== undefined) entry.responseBody = request.responseBody;
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
