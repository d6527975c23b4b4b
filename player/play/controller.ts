// Drives rrweb's Replayer for the page: play/pause, seeking in real offsets from the session start,
// speeds, skip idle (jump over idle gaps while playing) and compress idle (play each gap in 5 s of
// displayed time), events arriving batch by batch, and waiting where the stream is not loaded yet.
// It is in one mode at a time (player_mode.ts: waiting, ready, playing, seeking, live, ended).
import type { Replayer } from "rrweb";
import { addToReplayer, buildReplayer } from "@/player/dom/build_replayer.ts";
import type { RecordedEvent } from "@/recording/decode.ts";
import { HeldScrolls } from "@/player/dom/held_scrolls.ts";
import { KeyframeScout } from "@/player/keyframes/keyframe_scout.ts";
import { restoreNearestKeyframe } from "@/player/keyframes/nearest_keyframe.ts";
import { finishTransitions, placePointer } from "@/player/dom/replayer_internals.ts";
import { SeekScheduler } from "./seek_scheduler.ts";
import { gapAt, type IdleGap, idleGaps, Timeline } from "./timeline.ts";
import type { Speed } from "./speeds.ts";
import type { ControllerOptions } from "./controller_options.ts";
import { ReplayerConfig } from "./replayer_config.ts";
import { drawsItself, pauseOffset, playOffset, showLimit } from "./replay_position.ts";
import { opensAtMoment } from "./moment_reach.ts";
import { BOOTING, nextMode, type PlayerMode, wantsPlay } from "./player_mode.ts";

export type { ControllerOptions };

export class ReplayController {
  skipIdle = true;
  compressIdle = true;
  speed: Speed = 1;
  duration: number;
  gaps: IdleGap[] = [];
  /** rrweb has built a full snapshot in its frame. */
  drawn = false;
  #replayer: Replayer | null = null;
  #scrolls: HeldScrolls | null = null;
  /** Builds keyframes in idle time so that a seek fast-forwards a bounded span. */
  #scout: KeyframeScout | null = null;
  #shift = 0; // real offset of the replayer's own time 0
  #position: number; // real offset while not playing
  #mode: PlayerMode = BOOTING;
  #config: ReplayerConfig | null = null;
  #frame = 0;
  /** Scrubbing asks for many seeks; only the latest target of each frame is drawn. */
  #seeks = new SeekScheduler(() => {
    this.#show();
    this.options.onChange();
  });

  constructor(private readonly options: ControllerOptions) {
    this.duration = options.duration;
    this.#position = Math.min(Math.max(options.start, 0), this.duration);
  }

  get ready(): boolean {
    return this.#replayer !== null;
  }

  get mode(): PlayerMode {
    return this.#mode;
  }

  /** The current real offset from the session start. */
  get now(): number {
    if (!this.#replayer || this.#mode.name !== "playing") return this.#position;
    return Math.min(this.#replayer.getCurrentTime() + this.#shift, this.duration);
  }

  /** Keyframes cover every event loaded so far (or cannot be made for this recording). */
  get keyframesReady(): boolean {
    return this.#scout?.done ?? false;
  }

  /** New events, already merged into the recording. */
  eventsAdded(events: RecordedEvent[]) {
    const { recording } = this.options;
    this.gaps = idleGaps(recording.events.map((e) => e.timestamp), recording.sessionStart);
    this.duration = Math.max(this.duration, recording.loadedUntil);
    this.#scout?.eventsAdded(events);
    if (this.#replayer) this.#addToReplayer(events);
    else if (recording.showable && !this.#awaitingMoment) this.#create();
    this.#showIfReachable();
    this.options.onChange();
  }

  /** Every batch of the loading hole is in (the feed closed it). */
  holeClosed() {
    this.#showIfReachable();
  }

  /** The session stopped growing: a player waiting live at its end has ended. */
  sessionOver() {
    if (this.#mode.name !== "live") return;
    this.#mode = nextMode(this.#mode, "finished");
    this.options.onChange();
  }

  /** A moment waited for is drawn once its events are in; live, the new batch plays on. */
  #showIfReachable() {
    if (!this.#replayer || !this.#reachable(this.#position)) return;
    const live = this.#mode.name === "live";
    if (
      this.#mode.name === "waiting" || (live && this.options.recording.loadedUntil > this.#position)
    ) this.#show();
  }

  #addToReplayer(events: RecordedEvent[]) {
    const { recording: { sessionStart, events: all }, loading } = this.options;
    const inHole = (e: RecordedEvent) => loading.inHole(e.timestamp - sessionStart);
    if (addToReplayer(this.#replayer!, events, inHole)) {
      this.#shift = all[0].timestamp - sessionStart;
    }
  }

  /** Every batch asked for so far is in (the feed's `arriving` is over). */
  loadingDone() {
    // Without a full snapshot nothing can be drawn, but time, console and history still play.
    if (!this.#replayer && this.options.recording.events.length >= 2) this.#create();
    if (this.#mode.name === "waiting" && this.#replayer) {
      this.#position = Math.min(this.#position, this.options.recording.loadedUntil);
      this.#show();
    }
    this.options.onChange();
  }

  play() {
    if (this.#mode.name === "ended" || this.now >= this.duration) this.#position = 0;
    this.#mode = nextMode(this.#mode, "play");
    this.#seeks.cancel();
    this.#show();
    this.options.onChange(true);
  }

  pause() {
    const from = this.#mode.name;
    this.#position = this.now;
    this.#mode = nextMode(this.#mode, "pause");
    this.#seeks.cancel();
    cancelAnimationFrame(this.#frame);
    // A seek not drawn yet is drawn now, paused; while playing rrweb just stops where it is.
    if (from === "seeking") this.#show();
    else if (from === "playing") this.#replayer?.pause();
    this.options.onChange(true);
  }

  /** Moves to a real offset, keeping play or pause as it was. */
  seek(real: number) {
    this.#position = Math.min(Math.max(real, 0), this.duration);
    this.#mode = nextMode(this.#mode, "seek");
    cancelAnimationFrame(this.#frame);
    this.#seeks.request(this.#position);
    this.options.onChange(true);
  }

  /** The viewer's speed and idle choices. */
  setPlayback(change: Partial<Pick<ReplayController, "speed" | "skipIdle" | "compressIdle">>) {
    Object.assign(this, change);
    if (change.speed) this.#config?.speed(change.speed);
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
      () => ["playing", "seeking", "waiting"].includes(this.#mode.name),
      () => this.options.onChange(),
    );
    // At the very start rrweb draws the first snapshot by itself (and only it).
    if (wantsPlay(this.#mode) || !drawsItself(recording, this.#position, this.#shift)) this.#show();
    else this.#mode = nextMode(this.#mode, "shown");
  }

  /** Opened at a moment whose events are not all in (moment_reach.ts). */
  get #awaitingMoment(): boolean {
    const { recording, start } = this.options;
    return opensAtMoment(recording, start) && !this.#reachable(this.#position);
  }

  /** The exclusive end of the events that show `#position` (replay_position.ts). */
  #limit(): number {
    return showLimit(this.options.recording, this.#position, this.#shift);
  }

  #reachable(real: number): boolean {
    return this.options.loading.reaches(real);
  }

  /** Shows `#position`, playing or paused, or waits there until its events are decoded. */
  #show() {
    cancelAnimationFrame(this.#frame);
    if (!this.#replayer || !this.#reachable(this.#position)) {
      this.#mode = nextMode(this.#mode, "held");
      this.#replayer?.pause(); // the frame stays still until the moment's events are in
      return this.options.onWait?.(this.#position);
    }
    this.#mode = nextMode(this.#mode, "shown");
    this.#fastForward(() => {
      if (wantsPlay(this.#mode)) {
        return this.#replayer!.play(playOffset(this.#position, this.#shift));
      }
      this.#replayer!.pause(pauseOffset(this.options.recording, this.#position, this.#shift));
      const pointer = this.options.recording.pointerAt(this.#limit() - 1);
      if (pointer) placePointer(this.#replayer!, pointer);
    });
    if (wantsPlay(this.#mode)) this.#frame = requestAnimationFrame(this.#tick);
  }

  /**
   * Puts the nearest keyframe in place (nearest_keyframe.ts) and runs `jump` (rrweb's seek), scrolls
   * held to the end.
   */
  #fastForward(jump: () => void) {
    const replayer = this.#replayer!;
    const scrolls = this.#scrolls!;
    scrolls.around(() => {
      const { recording } = this.options;
      const limit = this.#limit();
      this.#config?.virtualDom(
        restoreNearestKeyframe(replayer, recording, this.#scout, scrolls, limit),
      );
      jump();
    });
    const document = replayer.iframe.contentDocument;
    if (document) finishTransitions(document);
  }

  #tick = () => {
    if (this.#mode.name !== "playing" || !this.#replayer) return;
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
    if (this.#mode.name !== "playing") return;
    const loadedUntil = this.options.recording.loadedUntil;
    this.#position = Math.min(Math.max(loadedUntil, this.now), this.duration);
    if (!this.options.loading.arriving && this.#position >= loadedUntil) {
      cancelAnimationFrame(this.#frame);
      if (this.options.loading.growing) this.#mode = nextMode(this.#mode, "edge");
      else {
        this.#position = this.duration;
        this.#mode = nextMode(this.#mode, "finished");
      }
    } else this.#mode = nextMode(this.#mode, "starved");
    this.options.onChange();
  }
}
