// Turns reserved `service:*` custom events (`service:url`, `service:identity`, …) into marker rows:
// kind = the tag's suffix, data = the payload, both made storable and bounded (marker_payload.ts; the
// schema has refused payloads nested too deep). Console errors (uncaught exceptions and rejections included: the SDK's console
// plugin records them as level `error`) become `error` markers too, a few per batch.
import { EventType } from "@rrweb/types";
import { cutText, ERROR_MESSAGE_CHARS, PATHNAME_CHARS } from "./limits.ts";
import { markerPayload } from "./marker_payload.ts";
import { storableText } from "./storable.ts";

const CONSOLE_PLUGIN = "rrweb/console@1";
const PREFIX = "service:";
/** A marker's kind: the tag's suffix, a column of the markers' indexes. */
const KIND_CHARS = 64;
/** A page logging errors in a loop must not turn one batch into thousands of rows. */
export const MAX_ERROR_MARKERS = 50;

/** The marker kinds counted on the session (migration 0014): its signals. */
export const SIGNAL_KINDS = ["error", "rage_click", "dead_click"] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];
export type SignalCounts = Record<SignalKind, number>;

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
  let errors = 0;
  for (const event of events) {
    if (event.type === EventType.Plugin) {
      if (errors === MAX_ERROR_MARKERS) continue;
      const message = consoleErrorMessage(event.data);
      if (message === null) continue;
      errors++;
      markers.push({ ts: event.timestamp, kind: "error", data: { message } });
      continue;
    }
    if (event.type !== EventType.Custom) continue;
    const data = event.data as { tag?: unknown; payload?: unknown } | null | undefined;
    const tag = data?.tag;
    if (typeof tag !== "string" || !tag.startsWith(PREFIX) || tag.length === PREFIX.length) {
      continue;
    }
    const kind = storableText(cutText(tag.slice(PREFIX.length), KIND_CHARS));
    markers.push({ ts: event.timestamp, kind, data: markerPayload(kind, data?.payload ?? null) });
  }
  return markers;
}

/** How many markers of each signal kind a batch's markers hold. */
export function countSignals(markers: readonly MarkerInput[]): SignalCounts {
  const counts: SignalCounts = { error: 0, rage_click: 0, dead_click: 0 };
  for (const marker of markers) {
    if (marker.kind in counts) counts[marker.kind as SignalKind]++;
  }
  return counts;
}

/**
 * The message of a console plugin event of level `error`, or null for anything else: its
 * arguments (each a JSON text the plugin wrote; strings are shown unquoted) joined by spaces, cut
 * to ERROR_MESSAGE_CHARS.
 */
function consoleErrorMessage(data: unknown): string | null {
  const plugin = data as { plugin?: unknown; payload?: unknown } | null | undefined;
  if (plugin?.plugin !== CONSOLE_PLUGIN) return null;
  const log = plugin.payload as { level?: unknown; payload?: unknown } | null | undefined;
  if (log?.level !== "error") return null;
  const args = Array.isArray(log.payload) ? log.payload : [];
  let message = "";
  for (const arg of args) {
    if (message.length >= ERROR_MESSAGE_CHARS) break;
    message += (message ? " " : "") + argumentText(arg);
  }
  return storableText(cutText(message.trim() || "(no message)", ERROR_MESSAGE_CHARS));
}

function argumentText(arg: unknown): string {
  if (typeof arg !== "string") return JSON.stringify(arg) ?? "";
  if (!arg.startsWith('"')) return arg;
  try {
    const text = JSON.parse(arg);
    return typeof text === "string" ? text : arg;
  } catch {
    return arg;
  }
}

/** The pathname of a recorded URL (cut to PATHNAME_CHARS), or "/" when it cannot be parsed. */
export function pathnameOf(url: string): string {
  try {
    return cutText(new URL(url).pathname, PATHNAME_CHARS);
  } catch {
    return "/";
  }
}
