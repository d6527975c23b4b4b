// A project whose network capture is off keeps no request (docs/decisions.md "Network capture").
// Its SDK loads no network bundle, but a page that loaded it before capture was turned off, or any
// other client, may still send requests. Each network event's requests are emptied before the
// batch is prepared, so bounding (./network.ts) leaves the event out as one with no request worth
// keeping, and a numbered batch still claims the event's number (./prepare.ts).
import { isNetworkEvent } from "@/recording/network.ts";

interface EventLike {
  type: number;
  timestamp: number;
  data?: unknown;
}

/** The events with every network plugin event's requests emptied; the others as they were. */
export function withoutRequests<E extends EventLike>(events: E[]): E[] {
  if (!events.some(isNetworkEvent)) return events;
  return events.map((event) =>
    isNetworkEvent(event)
      ? { ...event, data: { ...(event.data as object), payload: { requests: [] } } }
      : event
  );
}
