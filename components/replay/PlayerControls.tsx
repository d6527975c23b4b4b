// The player's controls (docs/decisions.md "Replay"): play/pause, −5 s / +5 s of real time, speed,
// the seek bar with the clock (the real moment and length, whatever the bar compresses), skip idle
// and compress idle, and a link to this moment. No keyboard shortcuts, by design.
import { type Speed, SPEEDS } from "@/player/play/speeds.ts";
import { clock } from "@/player/ui/format.ts";
import type { Tick } from "@/player/ui/ticks.ts";
import type { Timeline } from "@/player/play/timeline.ts";
import { SeekBar } from "./SeekBar.tsx";

export interface ControlsProps {
  ready: boolean;
  playing: boolean;
  timeline: Timeline;
  now: number;
  loadedUntil: number;
  ticks: readonly Tick[];
  /** Real offset in the session of the player's 0 (a public link's window start; else 0). */
  origin: number;
  speed: Speed;
  skipIdle: boolean;
  copyStatus: string;
  onPlayPause(): void;
  onStep(realMs: number): void;
  onSeekDisplay(display: number): void;
  onSeekReal(real: number): void;
  onSpeed(speed: Speed): void;
  onSkipIdle(on: boolean): void;
  onCompressIdle(on: boolean): void;
  /** Without it, no "Copy link" button (a public link's page). */
  onCopyLink?(): void;
}

const speedLabel = (speed: Speed) => `${speed}×`;

export function PlayerControls(p: ControlsProps) {
  const { timeline } = p;
  return (
    <div class="replay-controls">
      <SeekBar
        timeline={timeline}
        now={p.now}
        loadedUntil={p.loadedUntil}
        ticks={p.ticks}
        origin={p.origin}
        skipIdle={p.skipIdle}
        onSeek={p.onSeekDisplay}
        onSeekTick={p.onSeekReal}
        onStep={p.onStep}
      />
      <div class="replay-buttons">
        <button
          type="button"
          class="icon-button"
          aria-label="Back 5 seconds"
          title="Back 5 seconds"
          disabled={!p.ready}
          onClick={() => p.onStep(-5000)}
        >
          <span aria-hidden="true">↺ 5</span>
        </button>
        <button
          type="button"
          class="play-button"
          aria-label={p.playing ? "Pause" : "Play"}
          disabled={!p.ready}
          onClick={p.onPlayPause}
        >
          <span aria-hidden="true">{p.playing ? "❚❚" : "▶"}</span>
        </button>
        <button
          type="button"
          class="icon-button"
          aria-label="Forward 5 seconds"
          title="Forward 5 seconds"
          disabled={!p.ready}
          onClick={() => p.onStep(5000)}
        >
          <span aria-hidden="true">5 ↻</span>
        </button>
        <span class="replay-clock" data-testid="clock">
          <span data-testid="clock-now">{clock(p.origin + p.now)}</span>
          {" / "}
          <span data-testid="clock-total">{clock(p.origin + timeline.realDuration)}</span>
        </span>
        <span class="replay-spacer" />
        <label class="toggle">
          <input
            type="checkbox"
            role="switch"
            checked={p.skipIdle}
            onChange={(e) => p.onSkipIdle((e.target as HTMLInputElement).checked)}
          />
          Skip idle
        </label>
        <label class="toggle">
          <input
            type="checkbox"
            role="switch"
            checked={timeline.compress}
            onChange={(e) => p.onCompressIdle((e.target as HTMLInputElement).checked)}
          />
          Compress idle
        </label>
        <select
          aria-label="Speed"
          class="speed"
          value={String(p.speed)}
          onChange={(e) => p.onSpeed(Number((e.target as HTMLSelectElement).value) as Speed)}
        >
          {SPEEDS.map((s) => <option key={s} value={String(s)}>{speedLabel(s)}</option>)}
        </select>
        {p.onCopyLink && (
          <>
            <button type="button" class="link-button" onClick={p.onCopyLink} disabled={!p.ready}>
              Copy link at this moment
            </button>
            <span class="copy-status" role="status" aria-live="polite">{p.copyStatus}</span>
          </>
        )}
      </div>
    </div>
  );
}
