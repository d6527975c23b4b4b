// Ticks of a time axis in the viewer's time zone (the runtime's: the browser's once hydrated):
// whole local hours for windows up to a day, local midnights for a week, so the labels read as
// the viewer's own clock.

export interface Tick {
  /** Epoch ms. */
  t: number;
  label: string;
  /** A new local day starts here. */
  day: boolean;
}

const HOUR_MS = 3_600_000;
const hourLabel = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit" });
const dayLabel = new Intl.DateTimeFormat("en-GB", {
  weekday: "short",
  day: "numeric",
  month: "short",
});

/** Hours between ticks: about six to eight ticks per window. */
function stepHours(spanMs: number): number {
  const hours = spanMs / HOUR_MS;
  if (hours <= 8) return 1;
  if (hours <= 26) return 3;
  return 24;
}

export function timeTicks(from: number, to: number): Tick[] {
  const step = stepHours(to - from);
  const at = new Date(from);
  at.setMinutes(0, 0, 0);
  if (step === 24) at.setHours(0);
  while (at.getTime() < from || at.getHours() % Math.min(step, 24) !== 0) {
    at.setHours(at.getHours() + 1, 0, 0, 0);
  }
  const ticks: Tick[] = [];
  for (; at.getTime() <= to; at.setHours(at.getHours() + step, 0, 0, 0)) {
    const day = at.getHours() === 0;
    ticks.push({
      t: at.getTime(),
      label: step === 24 || day ? dayLabel.format(at) : hourLabel.format(at),
      day,
    });
  }
  return ticks;
}

/** The viewer's time zone name for axis titles ("Europe/Berlin"), or "local time". */
export function timeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone ?? "local time";
}
