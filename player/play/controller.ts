// Drives rrweb's Replayer for the page: play/pause, seeking in real offsets from the session start,
// speeds, skip idle (jump over idle gaps while playing) and compress idle (play each gap in 5 s of
// displayed time), events arriving batch by batch, and waiting where the stream is not loaded yet.
import type { Replayer } from "rrweb";
import { buildReplayer } from "@/player/dom/build_replayer.ts";
import type { RecordedEvent } from "@/player/decode/decode.ts";
import { HeldScrolls } from "@/player/dom/held_scrolls.ts";
import { KeyframeScout } from "@/player/keyframes/keyframe_scout.ts";
import { addToReplayer, LoadingHole } from "@/player/load/loading_hole.ts";
import { restoreNearestKeyframe } from "@/player/keyframes/nearest_keyframe.ts";
import { finishTransitions, placePointer } from "@/player/dom/replayer_internals.ts";
import { SeekScheduler } from "./seek_scheduler.ts";
import { gapAt, type IdleGap, Timeline } from "./timeline.ts";
import type { Speed } from "./speeds.ts";
import type { ControllerOptions } from "./controller_options.ts";
import { ReplayerConfig } from "./replayer_config.ts";
import { pauseOffset, playOffset, showLimit } from "./replay_position.ts";

export type { ControllerOptions };

export class ReplayController {
  skipIdle = true;
  compressIdle = true;
  speed: Speed = 1;
  duration: number;
  playing = false;
  ended = false;
  /** All batches are in (for now: an open session may get more). */
  loaded = false;
  gaps: IdleGap[] = [];
  /** rrweb has built a full snapshot in its frame. */
  drawn = false;
  #replayer: Replayer | null = null;
  #scrolls: HeldScrolls | null = null;
  /** Builds keyframes in idle time so that a seek fast-forwards a bounded span. */
  #scout: KeyframeScout | null = null;
  #shift = 0; // real offset of the replayer's own time 0
  #position: number; // real offset while not playing
  #waiting = false;
  #config: ReplayerConfig | null = null;
  /** Offsets not loaded while later ones are (loading_hole.ts): the loader opens and ends it. */
  readonly hole: LoadingHole;
  #frame = 0;
  /** Scrubbing asks for many seeks; only the latest target of each frame is drawn. */
  #seeks = new SeekScheduler(() => {
    this.#show();
    this.options.onChange();
  });

  constructor(private readonly options: ControllerOptions) {
    this.duration = options.duration;
    this.#position = Math.min(Math.max(options.start, 0), this.duration);
    this.hole = new LoadingHole(!!options.headFirst);
  }

  get ready(): boolean {
    return this.#replayer !== null;
  }

  /** Held at a moment whose events are not decoded yet. */
  get waiting(): boolean {
    return this.#waiting;
  }

  get timeline(): Timeline {
    return new Timeline(this.gaps, this.duration, this.compressIdle);
  }

  /** A seek was asked for and its frame is not drawn yet. */
  get seeking(): boolean {
    return this.#seeks.busy;
  }

  /** The current real offset from the session start. */
  get now(): number {
    if (!this.#replayer || !this.playing || this.#waiting || this.seeking) return this.#position;
    return Math.min(this.#replayer.getCurrentTime() + this.#shift, this.duration);
  }

  /** Keyframes cover every event loaded so far (or cannot be made for this recording). */
  get keyframesReady(): boolean {
    return this.#scout?.done ?? false;
  }

  get iframe(): HTMLIFrameElement | null {
    return this.#replayer?.iframe ?? null;
  }

  /** New events, already merged into the recording. */
  eventsAdded(events: RecordedEvent[]) {
    const { recording } = this.options;
    this.gaps = recording.gaps();
    this.duration = Math.max(this.duration, recording.loadedUntil);
    this.#scout?.eventsAdded(events);
    if (this.#replayer) this.#addToReplayer(events);
    else if (recording.showable && !this.#awaitingMoment()) this.#create();
    if (this.#waiting && this.#reachable(this.#position)) this.#show();
    this.options.onChange();
  }

  /** Every batch of the hole is in. */
  closeHole() {
    this.hole.close();
    if (this.#waiting && this.#reachable(this.#position)) this.#show();
  }

  /**
   * Opened at a moment whose events are not all in: rrweb is built once they are, and pauses there
   * at once. Built earlier, it would draw its first snapshot by itself and then again at the moment
   * (two full rebuilds), and take the events in between one `addEvent` at a time.
   */
  #awaitingMoment(): boolean {
    // A timeline whose 0 comes after the first event (a public link's window) opens at a moment too.
    const { recording } = this.options;
    const first = recording.events[0]?.timestamp ?? Infinity;
    const later = this.options.start > 0 || first < recording.sessionStart;
    return later && !this.#reachable(this.#position);
  }

  #addToReplayer(events: RecordedEvent[]) {
    const { sessionStart, events: all } = this.options.recording;
    const inHole = (e: RecordedEvent) => this.hole.has(e.timestamp - sessionStart);
    if (addToReplayer(this.#replayer!, events, inHole)) {
      this.#shift = all[0].timestamp - sessionStart;
    }
  }

  /** Every batch asked for so far is in. */
  loadingDone() {
    this.loaded = true;
    // Without a full snapshot nothing can be drawn, but time, console and history still play.
    if (!this.#replayer && this.options.recording.events.length >= 2) this.#create();
    if (this.#waiting) {
      this.#position = Math.min(this.#position, this.options.recording.loadedUntil);
      this.#show();
    }
    this.options.onChange();
  }

  play() {
    if (this.ended || this.now >= this.duration) this.#position = 0;
    this.ended = false;
    this.playing = true;
    this.#seeks.cancel();
    this.#show();
    this.options.onChange(true);
  }

  pause() {
    const seeking = this.seeking;
    this.#position = this.now;
    this.playing = false;
    this.#waiting = false;
    this.#seeks.cancel();
    cancelAnimationFrame(this.#frame);
    // A seek not drawn yet is drawn now, paused; otherwise rrweb just stops where it is.
    if (seeking) this.#show();
    else this.#replayer?.pause();
    this.options.onChange(true);
  }

  /** Moves to a real offset, keeping play or pause as it was. */
  seek(real: number) {
    this.#position = Math.min(Math.max(real, 0), this.duration);
    this.ended = false;
    cancelAnimationFrame(this.#frame);
    this.#seeks.request(this.#position);
    this.options.onChange(true);
  }

  setSpeed(speed: Speed) {
    this.speed = speed;
    this.#config?.speed(speed);
    this.options.onChange(true);
  }

  setSkipIdle(on: boolean) {
    this.skipIdle = on;
    this.options.onChange(true);
  }

  setCompressIdle(on: boolean) {
    this.compressIdle = on;
    this.options.onChange(true);
  }

  destroy() {
    this.#seeks.cancel();
    cancelAnimationFrame(this.#frame);
    this.#scout?.destroy();
    this.#replayer?.destroy();
    this.#replayer = null;
    this.#scrolls = null;
  }

  #create() {
    const { recording, root, onResize } = this.options;
    this.#shift = recording.events[0].timestamp - recording.sessionStart;
    const replayer = buildReplayer(recording.events, {
      root,
      speed: this.speed,
      onResize,
      onFinish: () => this.#finished(),
      onDrawn: () => {
        if (this.drawn) return;
        this.drawn = true;
        this.options.onChange();
      },
      sizeNow: () => this.#replayer === replayer ? recording.sizeAt(this.#limit() - 1) : null,
    });
    this.#replayer = replayer;
    this.#scrolls = new HeldScrolls(replayer);
    this.#config = new ReplayerConfig(replayer, this.speed);
    this.#scout = new KeyframeScout(
      recording.events,
      () => recording.sessionStart + this.now,
      // Playback, and a seek on its way to its frame, keep the main thread: a scout step that
      // rebuilds a page cannot be cut short.
      () => this.playing || this.#waiting || this.seeking,
      () => this.options.onChange(),
    );
    // At the very start rrweb draws the first snapshot by itself.
    if (this.playing || this.#position > this.#shift) this.#show();
  }

  /** The exclusive end of the events that show `#position` (replay_position.ts). */
  #limit(): number {
    return showLimit(this.options.recording, this.#position, this.#shift);
  }

  #reachable(real: number): boolean {
    if (this.hole.has(real)) return false;
    return this.loaded || real <= this.options.recording.loadedUntil;
  }

  /** Shows `#position`, playing or paused, or waits there until its events are decoded. */
  #show() {
    cancelAnimationFrame(this.#frame);
    this.#waiting = !this.#replayer || !this.#reachable(this.#position);
    if (this.#waiting) return this.options.onWait?.(this.#position);
    this.#fastForward(() => {
      if (this.playing) return this.#replayer!.play(playOffset(this.#position, this.#shift));
      this.#replayer!.pause(pauseOffset(this.options.recording, this.#position, this.#shift));
      const pointer = this.options.recording.pointerAt(this.#limit() - 1);
      if (pointer) placePointer(this.#replayer!, pointer);
    });
    if (this.playing) this.#frame = requestAnimationFrame(this.#tick);
  }

  /** Puts the nearest keyframe in place and runs `jump` (rrweb's seek), scrolls held to the end. */
  #fastForward(jump: () => void) {
    this.#scrolls!.around(() => {
      this.#restoreNearestKeyframe();
      jump();
    });
    const document = this.#replayer!.iframe.contentDocument;
    if (document) finishTransitions(document);
  }

  /** Before rrweb jumps to `#position`: the nearest keyframe in place (nearest_keyframe.ts). */
  #restoreNearestKeyframe() {
    const replayer = this.#replayer;
    if (!replayer) return;
    const { recording } = this.options;
    this.#config?.virtualDom(
      restoreNearestKeyframe(replayer, recording, this.#scout, this.#scrolls!, this.#limit()),
    );
  }

  #tick = () => {
    if (!this.playing || this.#waiting || !this.#replayer) return;
    const now = this.now;
    const gap = gapAt(this.gaps, now);
    if (gap && this.skipIdle) {
      this.#position = gap.end;
      this.#fastForward(() => this.#replayer!.play(playOffset(this.#position, this.#shift)));
    } else {
      this.#config?.speed(
        gap && this.compressIdle ? Timeline.gapSpeed(gap, this.speed) : this.speed,
      );
    }
    this.options.onChange();
    this.#frame = requestAnimationFrame(this.#tick);
  };

  /** rrweb ran out of events: the end, or the end of what is decoded so far. */
  #finished() {
    if (!this.playing) return;
    const loadedUntil = this.options.recording.loadedUntil;
    this.#position = Math.min(Math.max(loadedUntil, this.now), this.duration);
    if (this.loaded && this.#position >= loadedUntil) {
      this.#position = this.duration;
      this.playing = false;
      this.ended = true;
      cancelAnimationFrame(this.#frame);
    } else this.#waiting = true;
    this.options.onChange();
  }
}
