// A marker's payload as it is stored: storable text without URLs' credentials (./userinfo.ts),
// every string cut to its bound with a mark, and the whole within MARKER_DATA_CHARS
// (core/ingest/limits.ts), so that no payload fails its batch.
import {
  cutText,
  ERROR_MESSAGE_CHARS,
  MARKER_DATA_CHARS,
  MARKER_TEXT_CHARS,
  PATHNAME_CHARS,
  SELECTOR_CHARS,
  URL_CHARS,
} from "./limits.ts";
import { storableJson } from "./storable.ts";
import { withoutUserinfo } from "./userinfo.ts";

/** Fields of the markers the service reads, with their own bound (the rest: MARKER_TEXT_CHARS). */
const FIELD_CHARS: Record<string, Record<string, number>> = {
  url: { url: URL_CHARS, pathname: PATHNAME_CHARS },
  rage_click: { selector: SELECTOR_CHARS },
  dead_click: { selector: SELECTOR_CHARS },
  error: { message: ERROR_MESSAGE_CHARS },
  network_error: { url: URL_CHARS },
  web_vital: { selector: MARKER_TEXT_CHARS, pathname: PATHNAME_CHARS },
};

/** What an oversized payload keeps: the fields the service reads, each already bounded. */
const KEPT_FIELDS: Record<string, readonly string[]> = {
  url: ["url", "pathname"],
  rage_click: ["selector", "text", "x", "y", "clicks"],
  dead_click: ["selector", "text", "x", "y"],
  error: ["message"],
  identity: ["userId"],
  network_error: ["method", "url", "endpoint", "status", "durationMs"],
  web_vital: ["name", "value", "rating", "selector"],
};

/** The stored payload of a `service:<kind>` marker (the schema has refused deeper nesting). */
export function markerPayload(kind: string, payload: unknown): unknown {
  const data = cutStrings(withoutCredentials(storableJson(payload)), FIELD_CHARS[kind] ?? {});
  if (JSON.stringify(data).length <= MARKER_DATA_CHARS) return data;
  const kept: Record<string, unknown> = { truncated: true };
  for (const field of KEPT_FIELDS[kind] ?? []) {
    const value = (data as Record<string, unknown>)[field];
    if (value === null || typeof value !== "object") kept[field] = value;
  }
  return kept;
}

/** A copy with every string's URLs without their user and password. */
function withoutCredentials(value: unknown): unknown {
  if (typeof value === "string") return withoutUserinfo(value);
  if (!value || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(withoutCredentials);
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, withoutCredentials(child)]),
  );
}

/**
 * A copy with every string and key cut to MARKER_TEXT_CHARS, except the top-level string fields
 * named in `fields`, cut to their own bound.
 */
export function cutStrings(value: unknown, fields: Record<string, number> = {}): unknown {
  if (typeof value === "string") return cutText(value, MARKER_TEXT_CHARS);
  if (!value || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => cutStrings(item));
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const max = fields[key];
    out[cutText(key, MARKER_TEXT_CHARS)] = max !== undefined && typeof child === "string"
      ? cutText(child, max)
      : cutStrings(child);
  }
  return out;
}
