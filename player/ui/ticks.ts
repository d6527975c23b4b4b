// The seek bar's ticks: where the session's markers sit on it, each with a kind (its colour) and a
// tooltip. Kinds are taken as they come, so a marker kind this player has never heard of still gets
// a tick (labelled by its name); console errors of sessions stored before ingest made them markers
// come from the decoded console instead.
import type { ConsoleEntry } from "./console_entries.ts";
import type { SessionMarker } from "./history.ts";

export interface Tick {
  /** Real offset from the session start. */
  offset: number;
  kind: string;
  label: string;
}

/** Kinds with a name of their own; any other is shown by its stored name. */
const KIND_NAMES: Record<string, string> = {
  url: "Page",
  identity: "Identified",
  error: "Error",
  rage_click: "Rage click",
  dead_click: "Dead click",
  recording_paused: "Recording paused",
  trigger: "Recording triggered",
  comment: "Comment",
  network_error: "Failed request",
  web_vital: "Web vital",
};

const text = (value: unknown): string | null =>
  typeof value === "string" && value.trim() !== "" ? value.trim() : null;

/** What a marker's tooltip says after its kind's name. */
function detail(kind: string, data: unknown): string | null {
  const d = (data ?? {}) as Record<string, unknown>;
  switch (kind) {
    case "url":
      return text(d.pathname) ?? text(d.url);
    case "identity":
      return text(d.userId);
    case "error":
      return text(d.message);
    case "rage_click":
    case "dead_click":
      return text(d.text) ?? text(d.selector);
    case "recording_paused":
      return text(d.pathname);
    case "trigger":
      return text(d.reason)?.replace("_", " ") ?? null;
    case "comment":
      return text(d.text);
    case "network_error":
      return [text(d.endpoint), typeof d.status === "number" ? String(d.status) : null]
        .filter(Boolean).join(" ") || null;
    case "web_vital":
      return [
        text(d.name)?.toUpperCase(),
        typeof d.value === "number" ? String(d.value) : null,
        text(d.rating)?.replace("_", " "),
      ].filter(Boolean).join(" ") || null;
    default:
      return null;
  }
}

export function kindName(kind: string): string {
  return KIND_NAMES[kind] ?? kind.replaceAll("_", " ");
}

const MAX_LABEL = 80;

function label(kind: string, data: unknown): string {
  const more = detail(kind, data);
  const full = more ? `${kindName(kind)}: ${more}` : kindName(kind);
  return full.length > MAX_LABEL ? `${full.slice(0, MAX_LABEL - 1)}…` : full;
}

/** Ticks of the markers (and console errors) in time order, clamped to [0, duration]. */
export function seekTicks(
  markers: readonly SessionMarker[],
  logs: readonly ConsoleEntry[],
  sessionStart: number,
  duration: number,
  /** When a trigger started the recording (docs/decisions.md "Capture control"). */
  trigger: { at: number; reason: string } | null = null,
): Tick[] {
  const clamp = (offset: number) => Math.min(Math.max(offset, 0), duration);
  const ticks = markers.map((m): Tick => ({
    offset: clamp(m.timestamp - sessionStart),
    kind: m.kind,
    label: label(m.kind, m.data),
  }));
  if (!markers.some((m) => m.kind === "error")) {
    for (const entry of logs) {
      if (entry.level !== "error") continue;
      ticks.push({
        offset: clamp(entry.offset),
        kind: "error",
        label: label("error", { message: entry.args.join(" ") }),
      });
    }
  }
  if (trigger) {
    ticks.push({
      offset: clamp(trigger.at - sessionStart),
      kind: "trigger",
      label: label("trigger", trigger),
    });
  }
  return ticks.sort((a, b) => a.offset - b.offset);
}

/** The tick nearest `offset` within `reach` (same unit), or null. */
export function tickNear<T extends Tick>(
  ticks: readonly T[],
  offset: number,
  reach: number,
): T | null {
  let best: T | null = null;
  for (const tick of ticks) {
    const distance = Math.abs(tick.offset - offset);
    if (distance <= reach && (!best || distance < Math.abs(best.offset - offset))) best = tick;
  }
  return best;
}
