// The seek bar, laid out on the displayed timeline: played part, decoded part, a hatched band per
// idle stretch (named, for the eye and for a screen reader), a tick per marker (page change, console
// error, identify, frustration signal, any other kind; comments are pins in a lane of their own
// above the bar, so a comment beside a signal never hides it) and a native range input on top, so
// it is a real control named "Seek". Every time it says is real (docs/decisions.md "Replay"):
// hovering shows the real moment under the pointer and the labels of the ticks there (the nearest
// of the pointer's lane, and any other at its place) or of an idle band; a click on a tick (within
// its reach) seeks to its exact moment, not to the pixel's. Its arrow keys step as the
// −5 s / +5 s buttons do (1 s with Shift): a native step would move 1 ms of the bar
// (docs/decisions.md "Player and keyboard").
import { useState } from "preact/hooks";
import type { Timeline } from "@/player/play/timeline.ts";
import { clock } from "@/player/ui/format.ts";
import { bandAt, type IdleBand, idleBands } from "@/player/ui/idle_bands.ts";
import { type Tick, tickNear } from "@/player/ui/ticks.ts";

interface Props {
  timeline: Timeline;
  /** Real offsets. */
  now: number;
  loadedUntil: number;
  ticks: readonly Tick[];
  /** Real offset in the session of the player's 0 (a public link's window start), for the labels. */
  origin: number;
  skipIdle: boolean;
  onSeek(display: number): void;
  /** Seeks to a tick's own real offset (a click on it). */
  onSeekTick(real: number): void;
  /** Moves by this many ms of real time from where the player is. */
  onStep(realMs: number): void;
}

const percent = (part: number, whole: number) =>
  `${whole > 0 ? Math.min(Math.max(part / whole, 0), 1) * 100 : 0}%`;

/** How close (px) the pointer must be to a tick for its label to show and a click to take it. */
const TICK_REACH_PX = 6;
/** A press that moves further than this (px) before release is a drag, not a click on a tick. */
const CLICK_SLOP_PX = 3;

/** A tick placed on the displayed timeline, keeping its real offset for an exact seek. */
type PlacedTick = Tick & { real: number };

/** Comments have a lane of their own, above the bar; every other tick is on it. */
type Lane = "comments" | "markers";
const laneOf = (kind: string): Lane => kind === "comment" ? "comments" : "markers";

interface Hover {
  x: number;
  /** Near an end of the bar, where a centred label would be cut. */
  edge: "start" | "end" | null;
  display: number;
  /** The tick a click takes (the nearest in reach), then any other at its place. */
  ticks: PlacedTick[];
  band: IdleBand | null;
}

/** Within this many px of an end the hover label opens inwards. */
const EDGE_PX = 140;

/** The arrow keys' steps: the seek buttons' 5 s, or 1 s with Shift. */
export const KEY_STEP_MS = 5_000;
export const FINE_KEY_STEP_MS = 1_000;
const KEY_DIRECTION: Record<string, number> = {
  ArrowRight: 1,
  ArrowUp: 1,
  ArrowLeft: -1,
  ArrowDown: -1,
};

export function SeekBar(
  { timeline, now, loadedUntil, ticks, origin, skipIdle, onSeek, onSeekTick, onStep }: Props,
) {
  const [hover, setHover] = useState<Hover | null>(null);
  const [pressedAt, setPressedAt] = useState<number | null>(null);
  const total = timeline.displayDuration;
  const shown = timeline.toDisplay(now);
  const bands = idleBands(timeline, skipIdle);
  /** A real offset of the player as the session's clock reads it. */
  const moment = (real: number) => clock(origin + real);
  // Ticks on the displayed timeline (hover compares displayed offsets).
  const placed: PlacedTick[] = ticks.map((tick) => ({
    ...tick,
    real: tick.offset,
    offset: timeline.toDisplay(tick.offset),
  }));
  const lanes = placed.some((t) => laneOf(t.kind) === "comments") ? 2 : 1;

  function onPointerMove(event: PointerEvent) {
    const seek = event.currentTarget as HTMLElement;
    const box = seek.getBoundingClientRect();
    if (box.width <= 0) return;
    const x = Math.min(Math.max(event.clientX - box.left, 0), box.width);
    const display = x / box.width * total;
    const edge = x < EDGE_PX ? "start" : x > box.width - EDGE_PX ? "end" : null;
    // above the range input is the comments' lane
    const barTop = seek.querySelector("input")?.getBoundingClientRect().top ?? box.top;
    const lane: Lane = event.clientY < barTop ? "comments" : "markers";
    const inLane = placed.filter((t) => laneOf(t.kind) === lane);
    const pxMs = total / box.width;
    const tick = tickNear(inLane, display, TICK_REACH_PX * pxMs);
    const together = tick
      ? inLane.filter((t) => t !== tick && Math.abs(t.offset - tick.offset) <= pxMs)
      : [];
    setHover({
      x,
      edge,
      display,
      ticks: tick ? [tick, ...together] : [],
      band: tick ? null : bandAt(bands, display),
    });
  }

  // After the range input's own seek to the pixel: a click on a tick lands on its moment.
  function onPointerUp(event: PointerEvent) {
    const clicked = pressedAt !== null && Math.abs(event.clientX - pressedAt) <= CLICK_SLOP_PX;
    setPressedAt(null);
    if (clicked && hover?.ticks.length) onSeekTick(hover.ticks[0].real);
  }

  return (
    <div
      class="seek"
      data-lanes={lanes}
      onPointerMove={onPointerMove}
      onPointerLeave={() => setHover(null)}
      onPointerDown={(e) => setPressedAt(e.clientX)}
      onPointerUp={onPointerUp}
    >
      <div class="seek-track" aria-hidden="true">
        <div
          class="seek-loaded"
          style={{ width: percent(timeline.toDisplay(loadedUntil), total) }}
        />
        <div class="seek-played" style={{ width: percent(shown, total) }} />
      </div>
      {bands.map((band) => (
        <span
          key={band.real}
          class="seek-idle"
          role="img"
          aria-label={band.label}
          data-testid="idle-band"
          style={{ left: percent(band.start, total), width: percent(band.length, total) }}
        />
      ))}
      <div class="seek-ticks" aria-hidden="true">
        {placed.map((tick, i) => (
          <span
            key={i}
            class="seek-tick"
            data-kind={tick.kind}
            data-lane={laneOf(tick.kind)}
            title={tick.label}
            style={{ left: percent(tick.offset, total) }}
          />
        ))}
      </div>
      <input
        type="range"
        aria-label="Seek"
        min={0}
        max={Math.round(total)}
        step={1}
        value={Math.round(shown)}
        aria-valuetext={`${moment(now)} of ${moment(timeline.realDuration)}`}
        onInput={(e) => onSeek(Number((e.target as HTMLInputElement).value))}
        onKeyDown={(e) => {
          const direction = KEY_DIRECTION[e.key];
          if (!direction || e.altKey || e.ctrlKey || e.metaKey) return;
          e.preventDefault();
          onStep(direction * (e.shiftKey ? FINE_KEY_STEP_MS : KEY_STEP_MS));
        }}
      />
      {hover && (
        <div
          class="seek-hover"
          role="tooltip"
          data-testid="seek-hover"
          data-edge={hover.edge ?? undefined}
          style={{ left: `${hover.x}px` }}
        >
          <span class="seek-hover-time">{moment(timeline.toReal(hover.display))}</span>
          {hover.ticks.map((tick, i) => <span key={i} data-kind={tick.kind}>{tick.label}</span>)}
          {hover.band && <span data-kind="idle">{hover.band.label}</span>}
        </div>
      )}
    </div>
  );
}
