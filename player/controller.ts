// Drives rrweb's Replayer for the page: play/pause, seeking in real offsets from the session start,
// speeds, skip idle (jump over idle gaps while playing) and compress idle (play each gap in 5 s of
// displayed time), events arriving batch by batch, and waiting where the stream is not loaded yet.
import { Replayer } from "rrweb";
import type { RecordedEvent } from "./decode.ts";
import { keepBlankAddress } from "./blank_address.ts";
import { HeldScrolls } from "./held_scrolls.ts";
import { restoreKeyframe } from "./keyframe.ts";
import { KeyframeScout } from "./keyframe_scout.ts";
import {
  announceSize,
  finishTransitions,
  insertUnapplied,
  lastPlayedEvent,
  placePointer,
  playExactly,
} from "./replayer_internals.ts";
import type { Recording } from "./recording.ts";
import { SeekScheduler } from "./seek_scheduler.ts";
import { gapAt, type IdleGap, Timeline } from "./timeline.ts";
import type { Speed } from "./speeds.ts";
import type { Size } from "./viewport.ts";

/**
 * Up to this many events a seek applies straight to the shown document; more are replayed on
 * rrweb's virtual copy (editormd's whole recording to its end: 1.5 s straight, ~1 s virtual).
 */
const DIRECT_SPAN_EVENTS = 500;

export interface ControllerOptions {
  root: HTMLElement;
  recording: Recording;
  /** Real length of the session from its metadata, known before any event. */
  duration: number;
  /** Real offset to open at (`?t=`). */
  start: number;
  /**
   * The batches before the moment opened at come after the rest (`?from=`, then `?before=`): the
   * player starts with a hole from the session start (see `openHole`).
   */
  headFirst?: boolean;
  /** A moment was asked for whose events are not loaded (the loader may fetch them first). */
  onWait?(real: number): void;
  /** Something shown changed; `userAction` asks for the page at once, not on the next frame. */
  onChange(userAction?: boolean): void;
  onResize(size: Size): void;
}

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
  #appliedSpeed = 1;
  #virtualDom = true; // rrweb's default
  /**
   * Real offsets [start, end) whose events are not loaded while later ones are (loading jumped
   * ahead to a moment): they wait, and what arrives for them goes into rrweb's stream unapplied.
   */
  #hole: { start: number; end: number } | null;
  #frame = 0;
  /** Scrubbing asks for many seeks; only the latest target of each frame is drawn. */
  #seeks = new SeekScheduler(() => {
    this.#show();
    this.options.onChange();
  });

  constructor(private readonly options: ControllerOptions) {
    this.duration = options.duration;
    this.#position = Math.min(Math.max(options.start, 0), this.duration);
    this.#hole = options.headFirst ? { start: -Infinity, end: Infinity } : null;
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

  /** Loading jumps ahead: what is loaded ends at `start`; the jump's first batch sets the end. */
  openHole(start: number) {
    this.#hole = { start, end: Infinity };
  }

  /** The first batch loaded after the hole starts at this real offset. */
  holeEndsAt(end: number) {
    if (this.#hole) this.#hole.end = Math.max(end, this.#hole.start);
  }

  /** Every batch of the hole is in. */
  closeHole() {
    this.#hole = null;
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

  #inHole(real: number): boolean {
    return this.#hole !== null && this.#hole.start <= real && real < this.#hole.end;
  }

  #addToReplayer(events: RecordedEvent[]) {
    const replayer = this.#replayer!;
    const { recording } = this.options;
    // Events of the hole go into rrweb's stream unapplied: its `addEvent` would apply them at
    // once over what is shown, which starts at a later snapshot. Its time 0 moves with its first.
    const inHole = events.every((e) => this.#inHole(e.timestamp - recording.sessionStart));
    if (inHole && insertUnapplied(replayer, events)) {
      this.#shift = recording.events[0].timestamp - recording.sessionStart;
      return;
    }
    for (const event of events) replayer.addEvent(event);
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
    this.#applySpeed(speed);
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
    const replayer = new Replayer(recording.events, {
      root,
      speed: this.speed,
      skipInactive: false,
      showWarning: false,
      mouseTail: false,
      triggerFocus: false,
    });
    this.#shift = recording.events[0].timestamp - recording.sessionStart;
    replayer.on("resize", (size) => onResize(size as Size));
    replayer.on("finish", () => this.#finished());
    replayer.on("fullsnapshot-rebuilded", () => {
      if (this.drawn) return;
      this.drawn = true;
      this.options.onChange();
    });
    replayer.disableInteract();
    // rrweb announces its first Meta's size a task after it is built, over the size of the later
    // moment it may have drawn by then (`#show` below): the moment's size is announced after it.
    setTimeout(() => {
      const size = this.#replayer === replayer && recording.sizeAt(this.#limit() - 1);
      if (size) announceSize(replayer, size);
    });
    keepBlankAddress(replayer.iframe);
    this.#replayer = replayer;
    playExactly(replayer);
    this.#scrolls = new HeldScrolls(replayer);
    this.#appliedSpeed = this.speed;
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

  #offset(): number {
    return Math.max(this.#position - this.#shift, 0);
  }

  /**
   * Exclusive end (epoch ms) of the events that show `#position`: every event stamped at or before
   * the session start + `#position`. rrweb's `pause(offset)` replays only events strictly before
   * its target, so a seek to the millisecond of a mutation would leave that mutation out.
   */
  #limit(): number {
    const { recording } = this.options;
    const target = Math.floor(recording.sessionStart + Math.max(this.#position, this.#shift));
    return recording.shownUntil(target) + 1;
  }

  /** rrweb's offset for `pause` that shows `#position` (see `#limit`). */
  #pauseOffset(): number {
    return this.#limit() - (this.options.recording.sessionStart + this.#shift);
  }

  #reachable(real: number): boolean {
    if (this.#inHole(real)) return false;
    return this.loaded || real <= this.options.recording.loadedUntil;
  }

  /** Shows `#position`, playing or paused, or waits there until its events are decoded. */
  #show() {
    cancelAnimationFrame(this.#frame);
    this.#waiting = !this.#replayer || !this.#reachable(this.#position);
    if (this.#waiting) return this.options.onWait?.(this.#position);
    this.#fastForward(() => {
      if (this.playing) return this.#replayer!.play(this.#offset());
      this.#replayer!.pause(this.#pauseOffset());
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

  /**
   * Before rrweb jumps to `#position`: puts the nearest keyframe before it in place, unless going
   * forward from what is drawn replays less. rrweb then fast-forwards only from the keyframe on.
   */
  #restoreNearestKeyframe() {
    const replayer = this.#replayer;
    if (!replayer) return;
    // Events before `limit` are to be shown; a keyframe of the target's page taken at or before
    // the target serves.
    const limit = this.#limit();
    const page = this.options.recording.pageStart(limit - 1);
    const keyframe = this.#scout?.keyframes.before(limit, page) ?? null;
    const drawn = lastPlayedEvent(replayer)?.timestamp ?? -Infinity;
    const fromDrawn = drawn < limit && (!keyframe || keyframe.timestamp <= drawn);
    if (keyframe && !fromDrawn) restoreKeyframe(replayer, keyframe, this.#scrolls!);
    // A short span is applied to the DOM directly, which beats rrweb's virtual copy of the whole
    // document; a long one (no keyframe near yet) is replayed on that copy and diffed in once.
    const from = fromDrawn ? drawn : keyframe?.timestamp ?? -Infinity;
    const { recording } = this.options;
    const replayed = from === -Infinity ? Infinity : recording.countBetween(from, limit);
    this.#useVirtualDom(replayed > DIRECT_SPAN_EVENTS);
  }

  #tick = () => {
    if (!this.playing || this.#waiting || !this.#replayer) return;
    const now = this.now;
    const gap = gapAt(this.gaps, now);
    if (gap && this.skipIdle) {
      this.#position = gap.end;
      this.#fastForward(() => this.#replayer!.play(this.#offset()));
    } else {
      this.#applySpeed(gap && this.compressIdle ? Timeline.gapSpeed(gap, this.speed) : this.speed);
    }
    this.options.onChange();
    this.#frame = requestAnimationFrame(this.#tick);
  };

  #useVirtualDom(on: boolean) {
    if (on === this.#virtualDom) return;
    this.#virtualDom = on;
    this.#replayer?.setConfig({ useVirtualDom: on });
  }

  #applySpeed(speed: number) {
    if (speed === this.#appliedSpeed || !this.#replayer) return;
    this.#appliedSpeed = speed;
    this.#replayer.setConfig({ speed });
  }

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
