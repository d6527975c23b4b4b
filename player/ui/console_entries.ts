// The Console tab's rows: every Plugin event of rrweb's console plugin, with its level, its
// arguments as the recorder serialised them, and its real offset from the session start.
import { EventType } from "@rrweb/types";

export const CONSOLE_LEVELS = ["log", "info", "warn", "error", "debug"] as const;
export type ConsoleLevel = typeof CONSOLE_LEVELS[number];

export interface ConsoleEntry {
  offset: number;
  level: ConsoleLevel;
  args: string[];
  /** An error's stack frames, top first (the SDK keeps the page's own). */
  stack?: string[];
}

const LEVEL_ALIASES: Record<string, ConsoleLevel> = { assert: "error", trace: "debug" };

function levelOf(value: unknown): ConsoleLevel {
  const text = String(value);
  if ((CONSOLE_LEVELS as readonly string[]).includes(text)) return text as ConsoleLevel;
  return LEVEL_ALIASES[text] ?? "log";
}

/** One argument as shown: strings the recorder quoted lose their quotes. */
function shownArgument(arg: unknown): string {
  if (typeof arg !== "string") return JSON.stringify(arg) ?? String(arg);
  if (arg.length >= 2 && arg.startsWith('"') && arg.endsWith('"')) {
    try {
      const inner = JSON.parse(arg);
      if (typeof inner === "string") return inner;
    } catch { /* shown as recorded */ }
  }
  return arg;
}

/** Console rows of the given events (any order in, time order out). */
export function consoleEntries(
  events: readonly { type: number; data: unknown; timestamp: number }[],
  sessionStart: number,
): ConsoleEntry[] {
  const entries: ConsoleEntry[] = [];
  for (const event of events) {
    if (event.type !== EventType.Plugin) continue;
    const data = event.data as {
      plugin?: unknown;
      payload?: { level?: unknown; payload?: unknown; trace?: unknown };
    };
    if (typeof data?.plugin !== "string" || !data.plugin.startsWith("rrweb/console")) continue;
    const args = Array.isArray(data.payload?.payload) ? data.payload.payload : [];
    const entry: ConsoleEntry = {
      offset: event.timestamp - sessionStart,
      level: levelOf(data.payload?.level),
      args: args.map(shownArgument),
    };
    const trace = data.payload?.trace;
    if (entry.level === "error" && Array.isArray(trace) && trace.length) {
      entry.stack = trace.map(String);
    }
    entries.push(entry);
  }
  return entries.sort((a, b) => a.offset - b.offset);
}

export function levelCounts(entries: readonly ConsoleEntry[]): Record<ConsoleLevel, number> {
  const counts = Object.fromEntries(CONSOLE_LEVELS.map((l) => [l, 0])) as Record<
    ConsoleLevel,
    number
  >;
  for (const entry of entries) counts[entry.level]++;
  return counts;
}

/** Index of the entry at `offset`: the last one logged at or before it, or -1. */
export function currentEntry(entries: readonly ConsoleEntry[], offset: number): number {
  let low = 0, high = entries.length - 1, found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (entries[mid].offset <= offset) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  return found;
}
