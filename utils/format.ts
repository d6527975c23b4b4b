// How the dashboard writes numbers and times: durations, counts, relative and exact times. Shared
// by server-rendered pages and islands; in the browser, times are in the viewer's time zone.

/**
 * How long something lasted, the one way the dashboard and the player say it: "450 ms" (under a
 * second), "45 s", "3 min 5 s", "2 h 4 min", "2 d 2 h"; a zero second part is left out ("2 min").
 * Clock positions ("3:05") are player/ui/format.ts `clock`.
 */
export function formatDuration(ms: number): string {
  if (ms > 0 && Math.round(ms) < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return withPart(`${minutes} min`, seconds % 60, "s");
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return withPart(`${hours} h`, minutes % 60, "min");
  return withPart(`${Math.floor(hours / 24)} d`, hours % 24, "h");
}

function withPart(whole: string, part: number, unit: string): string {
  return part ? `${whole} ${part} ${unit}` : whole;
}

const numbers = new Intl.NumberFormat("en");

export function formatCount(n: number): string {
  return numbers.format(n);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Infinity],
];

/** "3 minutes ago", "yesterday", "in 2 hours" for `iso` seen at `now`. */
export function formatRelative(iso: string, now: Date): string {
  let value = (new Date(iso).getTime() - now.getTime()) / 1000;
  if (Math.abs(value) < 10) return "just now";
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return relative.format(Math.round(value), "year");
}

/**
 * "12 Mar 2026, 14:05:09" in the runtime's time zone: the viewer's in the browser. On the server
 * (`timeZone` "UTC") it says so, until an island re-renders it in the browser.
 */
export function formatExact(iso: string, timeZone?: string): string {
  const text = new Date(iso).toLocaleString("en-GB", {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    timeZone,
  });
  return timeZone === "UTC" ? `${text} UTC` : text;
}

/** The pathname of a recorded URL ("/cart"), or the text itself when it is not a URL. */
export function pathnameOf(url: string | null): string {
  if (!url) return "—";
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** The traits as a short "plan: pro · seats: 4" line, at most `max` of them. */
export function traitsSummary(traits: Record<string, unknown> | null, max = 3): string {
  const entries = Object.entries(traits ?? {}).filter(([, v]) => v !== null && v !== "");
  const shown = entries.slice(0, max).map(([k, v]) =>
    `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`
  );
  if (entries.length > max) shown.push(`+${entries.length - max} more`);
  return withoutBidiControls(shown.join(" · "));
}

/**
 * Text a visitor's page chose (a name, a trait) as it may be shown: without bidirectional
 * controls (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C), which could reorder what
 * surrounds it ("gnp.exe" read as "exe.png").
 */
export function withoutBidiControls(text: string): string {
  return text.replace(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g, "");
}

/** Visitor text in a page's <title>: without bidirectional controls, at most 60 characters. */
export function titleText(text: string): string {
  const plain = withoutBidiControls(text);
  return plain.length > 60 ? `${plain.slice(0, 59)}…` : plain;
}
