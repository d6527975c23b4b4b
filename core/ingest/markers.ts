// Turns reserved `service:*` custom events (`service:url`, `service:identity`, …) into marker rows:
// kind = the tag's suffix, data = the payload, both made storable and bounded (marker_payload.ts; the
// schema has refused payloads nested too deep). Console errors (uncaught exceptions and rejections included: the SDK's console
// plugin records them as level `error`) become `error` markers too, a few per batch.
import { EventType } from "@rrweb/types";
import { cutText, ERROR_MESSAGE_CHARS, PATHNAME_CHARS } from "./limits.ts";
import { markerPayload } from "./marker_payload.ts";
import { storableText } from "./storable.ts";
import { withoutUserinfo } from "./userinfo.ts";
import { isVitalName, rateVital } from "./web_vitals.ts";
import { CONSOLE_PLUGIN, SERVICE_TAG_PREFIX as PREFIX } from "@/recording/events.ts";

/** A marker's kind: the tag's suffix, a column of the markers' indexes. */
const KIND_CHARS = 64;
/** A page logging errors in a loop must not turn one batch into thousands of rows. */
export const MAX_ERROR_MARKERS = 50;
/** An error's stack and source, bounded as the SDK bounds them. */
export const ERROR_STACK_CHARS = 4000;
export const ERROR_SOURCE_CHARS = 500;

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
      const error = consoleError(event.data);
      if (error === null) continue;
      errors++;
      markers.push({ ts: event.timestamp, kind: "error", data: error });
      continue;
    }
    if (event.type !== EventType.Custom) continue;
    const data = event.data as { tag?: unknown; payload?: unknown } | null | undefined;
    const tag = data?.tag;
    if (typeof tag !== "string" || !tag.startsWith(PREFIX) || tag.length === PREFIX.length) {
      continue;
    }
    const kind = storableText(cutText(tag.slice(PREFIX.length), KIND_CHARS));
    if (kind === "web_vital") {
      const vital = vitalMarker(event.timestamp, data?.payload);
      if (vital) markers.push(vital);
      continue;
    }
    markers.push({
      ts: CLICK_KINDS.has(kind) ? clickTime(event.timestamp, data?.payload) : event.timestamp,
      kind,
      data: markerPayload(kind, data?.payload ?? null),
    });
  }
  return markers;
}

/** How far before its event a click signal's own time (`at`) may lie: a dead click waits 3 s. */
export const SIGNAL_AT_WINDOW_MS = 60_000;
const CLICK_KINDS = new Set(["rage_click", "dead_click"]);

/**
 * A click signal's marker time: the payload's `at` when it is up to SIGNAL_AT_WINDOW_MS before the
 * event (the SDK sends a signal once it is known, dated when it happened), else the event's.
 */
function clickTime(timestamp: number, payload: unknown): number {
  const at = (payload as { at?: unknown } | null | undefined)?.at;
  if (typeof at !== "number" || !Number.isSafeInteger(at)) return timestamp;
  return at <= timestamp && at >= timestamp - SIGNAL_AT_WINDOW_MS ? at : timestamp;
}

/** How far before its event a web vital's moment may lie: LCP is reported at the page's end. */
export const VITAL_AT_WINDOW_MS = 30 * 60_000;

/**
 * A `web_vital` marker: the name and value as sent, the rating ingest gives the value by the
 * published thresholds (core/ingest/web_vitals.ts), dated at its moment (`at`); null when the
 * name or value is not one.
 */
function vitalMarker(timestamp: number, payload: unknown): MarkerInput | null {
  const p = (payload ?? {}) as Record<string, unknown>;
  const name = p.name, value = p.value;
  if (!isVitalName(name) || typeof value !== "number" || !(value >= 0) || value > 1e9) {
    return null;
  }
  const at = p.at;
  const ts = typeof at === "number" && Number.isSafeInteger(at) && at <= timestamp &&
      at >= timestamp - VITAL_AT_WINDOW_MS
    ? at
    : timestamp;
  const data: Record<string, unknown> = { name, value, rating: rateVital(name, value) };
  if (typeof p.selector === "string" && p.selector) data.selector = p.selector;
  if (typeof p.pathname === "string" && p.pathname) data.pathname = p.pathname;
  return { ts, kind: "web_vital", data: markerPayload("web_vital", data) };
}

/** The `name:rating` pairs of a batch's web vitals (`lcp:poor`), each once. */
export function vitalRatings(markers: readonly MarkerInput[]): string[] {
  const pairs = new Set<string>();
  for (const m of markers) {
    if (m.kind !== "web_vital") continue;
    const d = m.data as { name: string; rating: string };
    pairs.add(`${d.name}:${d.rating}`);
  }
  return [...pairs];
}

/** How many markers of each signal kind a batch's markers hold. */
export function countSignals(markers: readonly MarkerInput[]): SignalCounts {
  const counts: SignalCounts = { error: 0, rage_click: 0, dead_click: 0 };
  for (const marker of markers) {
    if (marker.kind in counts) counts[marker.kind as SignalKind]++;
  }
  return counts;
}

/** An error marker's data: the message, and the evidence the SDK recorded with it. */
export interface ErrorEvidence {
  message: string;
  /** The page's own frames, one per line, top first (at most ERROR_STACK_CHARS). */
  stack?: string;
  source?: string;
  line?: number;
  column?: number;
}

/**
 * A console plugin event of level `error` as an error marker's data, or null for anything else:
 * the message (see consoleErrorMessage), its stack (the plugin's `trace`, which the SDK bounds to
 * the page's own frames) and the SDK's `source`, `line` and `column` of the top frame.
 */
function consoleError(data: unknown): ErrorEvidence | null {
  const plugin = data as { plugin?: unknown; payload?: unknown } | null | undefined;
  if (plugin?.plugin !== CONSOLE_PLUGIN) return null;
  const log = plugin.payload as
    | {
      level?: unknown;
      payload?: unknown;
      trace?: unknown;
      source?: unknown;
      line?: unknown;
      column?: unknown;
    }
    | null
    | undefined;
  if (log?.level !== "error") return null;
  const error: ErrorEvidence = { message: consoleErrorMessage(log.payload) };
  const frames = Array.isArray(log.trace) ? log.trace.filter((f) => typeof f === "string") : [];
  if (frames.length) {
    error.stack = storableText(cutText(withoutUserinfo(frames.join("\n")), ERROR_STACK_CHARS));
  }
  if (typeof log.source === "string" && log.source) {
    error.source = storableText(cutText(withoutUserinfo(log.source), ERROR_SOURCE_CHARS));
  }
  if (isPosition(log.line)) error.line = log.line;
  if (isPosition(log.column)) error.column = log.column;
  return error;
}

const isPosition = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;

/**
 * The message of a console error's arguments (each a JSON text the plugin wrote; strings are
 * shown unquoted) joined by spaces, URLs without their user and password, cut to
 * ERROR_MESSAGE_CHARS.
 */
function consoleErrorMessage(payload: unknown): string {
  const args = Array.isArray(payload) ? payload : [];
  let message = "";
  for (const arg of args) {
    if (message.length >= ERROR_MESSAGE_CHARS) break;
    message += (message ? " " : "") + argumentText(arg);
  }
  // Credentials out before the cut, so no part of them is left at the end.
  const text = withoutUserinfo(message.trim()) || "(no message)";
  return storableText(cutText(text, ERROR_MESSAGE_CHARS));
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
