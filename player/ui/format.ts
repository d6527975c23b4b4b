// How the player writes clock positions: m:ss (h:mm:ss past an hour). Durations in words are
// utils/format.ts `formatDuration`, as everywhere else.

export function clock(ms: number): string {
  const total = Math.max(Math.floor(ms / 1000), 0);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}
