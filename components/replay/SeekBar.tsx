// The seek bar on the displayed timeline: played part, decoded part, idle bands (hatched) and a
// native range input on top, so it is a real control named "Seek".
import type { Timeline } from "../../player/timeline.ts";
import { clock } from "../../player/format.ts";

interface Props {
  timeline: Timeline;
  /** Real offsets. */
  now: number;
  loadedUntil: number;
  onSeek(display: number): void;
}

const percent = (part: number, whole: number) =>
  `${whole > 0 ? Math.min(Math.max(part / whole, 0), 1) * 100 : 0}%`;

export function SeekBar({ timeline, now, loadedUntil, onSeek }: Props) {
  const total = timeline.displayDuration;
  const shown = timeline.toDisplay(now);
  return (
    <div class="seek">
      <div class="seek-track" aria-hidden="true">
        <div
          class="seek-loaded"
          style={{ width: percent(timeline.toDisplay(loadedUntil), total) }}
        />
        {timeline.gaps.map((gap) => {
          const start = timeline.toDisplay(gap.start);
          return (
            <div
              key={gap.start}
              class="seek-idle"
              data-testid="idle-band"
              style={{
                left: percent(start, total),
                width: percent(timeline.toDisplay(gap.end) - start, total),
              }}
            />
          );
        })}
        <div class="seek-played" style={{ width: percent(shown, total) }} />
      </div>
      <input
        type="range"
        aria-label="Seek"
        min={0}
        max={Math.round(total)}
        step={1}
        value={Math.round(shown)}
        aria-valuetext={`${clock(shown)} of ${clock(total)}`}
        onInput={(e) => onSeek(Number((e.target as HTMLInputElement).value))}
      />
    </div>
  );
}
