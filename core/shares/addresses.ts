// The addresses a link's or an export's events carry (docs/decisions.md "Shares", "Exports"). A
// recorded page's address is cut to its origin and path wherever it is written (its Meta, the
// `service:url` event, the url markers, the session's start), since its query or fragment may name
// the visitor (`?email=…&reset_token=…`). A link's player also gets no relative address: one would
// resolve under `/s/` on our own origin, making requests there.
import { EventType } from "@rrweb/types";
import type { RecordedEvent } from "@/recording/decode.ts";
import { eventAddresses, type KeepAddress } from "@/core/exports/offline_events.ts";

/** A page's address without its query, fragment or credentials; "" when it is none. */
export function pageAddress(address: string): string {
  try {
    const url = new URL(address);
    url.username =
      url.password =
      url.search =
      url.hash =
        "";
    return url.href;
  } catch {
    return "";
  }
}

/** The event with the page addresses it names cut to origin and path: nothing else changes. */
export function withPageAddresses(event: RecordedEvent): RecordedEvent {
  const data = event.data as Record<string, unknown> | null;
  if (!data || typeof data !== "object") return event;
  if (event.type === EventType.Meta && typeof data.href === "string") {
    return { ...event, data: { ...data, href: pageAddress(data.href) } };
  }
  const payload = data.payload as Record<string, unknown> | null | undefined;
  if (event.type === EventType.Custom && typeof payload?.url === "string") {
    return { ...event, data: { ...data, payload: { ...payload, url: pageAddress(payload.url) } } };
  }
  return event;
}

/** A marker's data with its page address cut (a url marker's `url`). */
export function markerWithPageAddress(data: unknown): unknown {
  const d = data as Record<string, unknown> | null;
  return d && typeof d === "object" && typeof d.url === "string"
    ? { ...d, url: pageAddress(d.url) }
    : data;
}

// deno-lint-ignore no-control-regex
const SCHEME = /^[\u0000-\u0020]*([a-z][a-z0-9+.-]*:|#)/i;
/** An address with a scheme (or a fragment of the page itself): one that resolves nowhere near us. */
export const isAbsolute: KeepAddress = (address) => address.trim() === "" || SCHEME.test(address);

/** An event as a link's player gets it: page addresses cut, relative addresses emptied. */
export function sharedEvent(event: RecordedEvent): RecordedEvent {
  return eventAddresses(withPageAddresses(event), isAbsolute);
}
