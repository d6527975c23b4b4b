// The History feed (docs/decisions.md "Replay"): sections `init`, `navigation` and `paused` (a
// page the project's URL rules leave out) chained head to tail over the whole session, with each
// page's web vitals, and markers `idle` and `identify` nested in the section that holds them. A
// page's section starts at its first frame, the full snapshot after its url marker, so its row
// opens that page and not the one before. All times are real offsets from the session start; only
// the seek bar uses the compressed timeline.
import { formatDuration } from "@/utils/format.ts";
import type { IdleGap } from "@/player/play/timeline.ts";
import { type PageVital, pageVitals } from "./page_vitals.ts";

export interface SessionMarker {
  timestamp: number;
  kind: string;
  data: unknown;
}

export interface HistoryMarker {
  kind: "idle" | "identify" | "comment" | SignalKind;
  label: string;
  /** A frustration signal's element selector, shown beside its label. */
  detail?: string;
  /** An error's whole message, its stack and where it was thrown, shown when the row expands. */
  evidence?: string;
  start: number;
  duration: number;
}

/** The frustration signals ingest stores as markers. */
export type SignalKind = "rage_click" | "dead_click" | "error" | "network_error";
const SIGNAL_KINDS: readonly string[] = ["rage_click", "dead_click", "error", "network_error"];

export interface HistorySection {
  kind: "init" | "navigation" | "paused";
  label: string;
  /** The full URL, shown on hover. */
  url: string | null;
  /** The page's path (null for a session start without one). */
  pathname: string | null;
  /** A blocked page's path: nothing of it was recorded (its `recording_paused` marker). */
  blocked: string | null;
  /** The page's web vitals with their ratings (player/ui/page_vitals.ts). */
  vitals: PageVital[];
  start: number;
  duration: number;
  markers: HistoryMarker[];
}

export interface ActiveRow {
  section: number;
  /** Index of the active marker in that section, or null when the section itself is active. */
  marker: number | null;
}

function urlOf(data: unknown): { url: string | null; pathname: string } {
  const { url, pathname } = (data ?? {}) as { url?: unknown; pathname?: unknown };
  const text = typeof url === "string" ? url : null;
  if (typeof pathname === "string") return { url: text, pathname };
  try {
    return { url: text, pathname: text ? new URL(text).pathname : "" };
  } catch {
    return { url: text, pathname: text ?? "" };
  }
}

export function idleLabel(durationMs: number): string {
  return `Idle ${formatDuration(durationMs)}`;
}

const PAUSED = "recording_paused";

/**
 * The feed for a session of `duration` ms starting at `sessionStart`. A url marker at the session
 * start (the one ingest writes from the first batch's metadata) names the init section instead of
 * opening a zero-length navigation section before it; a session opened on a blocked page has its
 * init section paused. `frames` are the real offsets of the full snapshots known (in order): a
 * page's section starts at the first one between its url marker and the next page's marker (the
 * SDK marks a page as its script runs, and rrweb draws it at DOMContentLoaded).
 */
export function buildHistory(
  markers: readonly SessionMarker[],
  gaps: readonly IdleGap[],
  sessionStart: number,
  duration: number,
  frames: readonly number[] = [],
): HistorySection[] {
  const sorted = [...markers].sort((a, b) => a.timestamp - b.timestamp);
  const clamp = (timestamp: number) => Math.min(Math.max(timestamp - sessionStart, 0), duration);
  const sections: HistorySection[] = [
    section("init", "Session start", null, null, null, 0),
  ];
  for (const marker of sorted.filter((m) => m.kind === "url" || m.kind === PAUSED)) {
    const { url, pathname } = urlOf(marker.data);
    const start = clamp(marker.timestamp);
    const head = sections.length === 1 && start === 0;
    if (marker.kind === PAUSED) {
      if (head) sections[0].blocked = pathname;
      else sections.push(section("paused", pathname, null, pathname, pathname, start));
    } else if (head && sections[0].url === null) {
      sections[0].label = `Session start · ${pathname}`;
      sections[0].url = url;
      sections[0].pathname = pathname;
    } else sections.push(section("navigation", pathname, url, pathname, null, start));
  }
  // Each page from its first frame on (bounded by the next marker, so a page without one keeps its
  // marker's time), then every section until the next.
  const ends = sections.map((_, i) => sections[i + 1]?.start ?? duration);
  sections.forEach((s, i) => {
    if (s.kind !== "navigation") return;
    const frame = frames.find((f) => f >= s.start && f < ends[i]);
    if (frame !== undefined) s.start = frame;
  });
  sections.forEach((s, i) => {
    s.duration = (sections[i + 1]?.start ?? duration) - s.start;
  });
  pageVitals(sections, sorted, sessionStart).forEach((vitals, i) => sections[i].vitals = vitals);
  const nested: HistoryMarker[] = [
    ...gaps.map((gap): HistoryMarker => ({
      kind: "idle",
      label: idleLabel(gap.end - gap.start),
      start: gap.start,
      duration: gap.end - gap.start,
    })),
    ...sorted.filter((m) => m.kind === "identity").map((m): HistoryMarker => ({
      kind: "identify",
      label: String((m.data as { userId?: unknown })?.userId ?? "unknown user"),
      start: clamp(m.timestamp),
      duration: 0,
    })),
    // A member's comment on the moment (player/ui/comments.ts): its text, said as text.
    ...sorted.filter((m) => m.kind === "comment").map((m): HistoryMarker => ({
      kind: "comment",
      label: String((m.data as { text?: unknown })?.text ?? ""),
      detail: String((m.data as { author?: unknown })?.author ?? ""),
      start: clamp(m.timestamp),
      duration: 0,
    })),
    ...sorted.filter((m) => SIGNAL_KINDS.includes(m.kind)).map((m): HistoryMarker => ({
      ...signalText(m.kind as SignalKind, m.data),
      kind: m.kind as SignalKind,
      start: clamp(m.timestamp),
      duration: 0,
    })),
  ].sort((a, b) => a.start - b.start);
  for (const marker of nested) sections[sectionAt(sections, marker.start)].markers.push(marker);
  return sections;
}

function section(
  kind: HistorySection["kind"],
  label: string,
  url: string | null,
  pathname: string | null,
  blocked: string | null,
  start: number,
): HistorySection {
  return { kind, label, url, pathname, blocked, vitals: [], start, duration: 0, markers: [] };
}

/** A signal's row text: the element's text (or the error's message) and its selector. */
export function signalText(
  kind: SignalKind,
  data: unknown,
): { label: string; detail?: string; evidence?: string } {
  const d = (data ?? {}) as {
    text?: unknown;
    selector?: unknown;
    clicks?: unknown;
    message?: unknown;
    stack?: unknown;
    source?: unknown;
    line?: unknown;
    column?: unknown;
  };
  if (kind === "network_error") {
    const n = (data ?? {}) as { endpoint?: unknown; status?: unknown };
    const status = n.status === 0 ? "no answer" : String(n.status ?? "");
    return { label: `${String(n.endpoint ?? "request")} → ${status}` };
  }
  if (kind === "error") {
    const label = typeof d.message === "string" ? d.message : "Error";
    const at = typeof d.source === "string"
      ? `at ${[d.source, d.line, d.column].filter((p) => p !== undefined).join(":")}`
      : "";
    const stack = typeof d.stack === "string" ? d.stack : "";
    return { label, evidence: [label, stack || at].filter(Boolean).join("\n") };
  }
  const text = typeof d.text === "string" && d.text.trim() ? `“${d.text.trim()}”` : "";
  const clicks = kind === "rage_click" && typeof d.clicks === "number" ? `${d.clicks} clicks` : "";
  return {
    label: [clicks, text].filter(Boolean).join(" on ") || "(no text)",
    detail: typeof d.selector === "string" ? d.selector : undefined,
  };
}

/** The section holding `offset`: the last one starting at or before it. */
function sectionAt(sections: readonly HistorySection[], offset: number): number {
  let index = 0;
  for (let i = 1; i < sections.length; i++) if (sections[i].start <= offset) index = i;
  return index;
}

/** Exactly one active row: the marker covering `offset` if any, else its section. */
export function activeRow(sections: readonly HistorySection[], offset: number): ActiveRow {
  const section = sectionAt(sections, offset);
  const marker = sections[section].markers.findIndex((m) =>
    m.start <= offset && offset < m.start + m.duration
  );
  return { section, marker: marker < 0 ? null : marker };
}
