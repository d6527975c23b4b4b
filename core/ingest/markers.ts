// Turns reserved `service:*` custom events (spec §6) into marker rows: kind = the tag's suffix,
// data = the payload, both made storable (the schema has refused payloads nested too deep).
import { storableJson, storableText } from "./storable.ts";

const CUSTOM_EVENT = 5;
const PREFIX = "service:";

export interface MarkerInput {
  ts: number;
  kind: string;
  data: unknown;
}

interface EventLike {
  type: number;
  timestamp: number;
  data?: unknown;
}

export function extractMarkers(events: readonly EventLike[]): MarkerInput[] {
  const markers: MarkerInput[] = [];
  for (const event of events) {
    if (event.type !== CUSTOM_EVENT) continue;
    const data = event.data as { tag?: unknown; payload?: unknown } | null | undefined;
    const tag = data?.tag;
    if (typeof tag !== "string" || !tag.startsWith(PREFIX) || tag.length === PREFIX.length) {
      continue;
    }
    markers.push({
      ts: event.timestamp,
      kind: storableText(tag.slice(PREFIX.length)),
      data: storableJson(data?.payload ?? null),
    });
  }
  return markers;
}

/** The pathname of a recorded URL, or "/" when it cannot be parsed. */
export function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "/";
  }
}
