// Builds player-side keyframes while the page is idle: a second, hidden rrweb Replayer plays the
// recording in short steps (each its own background task), and a keyframe of its document is taken
// after every full-snapshot rebuild and whenever KEYFRAME_WORK_MS of fast-forward work has piled up
// since the last one. It works outward from where the viewer is (`nextSegment`), and a keyframe
// stays until an event it missed arrives (a batch from before the moment opened at misses none). A
// seek then restores the nearest keyframe and fast-forwards only the span after it, instead of
// rebuilding the last full snapshot and replaying everything since.
import { EventType, IncrementalSource } from "@rrweb/types";
import { Replayer } from "rrweb";
import type { RecordedEvent } from "@/recording/decode.ts";
import { keepBlankAddress } from "@/player/dom/blank_address.ts";
import { HeldScrolls } from "@/player/dom/held_scrolls.ts";
import { captureKeyframe, type Keyframe } from "./keyframe.ts";
import {
  keyframeDue,
  KeyframeList,
  nextSegment,
  nextStepSize,
  type Segment,
  segments,
  stepEnd,
} from "./keyframe_plan.ts";
import {
  hasKeyframeSupport,
  insertUnapplied,
  playExactly,
} from "@/player/dom/replayer_internals.ts";

/** Incremental sources a DOM clone does not carry: CSSOM rules, fonts, adopted stylesheets. */
const UNCLONABLE_SOURCES = new Set<number>([
  IncrementalSource.StyleSheetRule,
  IncrementalSource.Font,
  IncrementalSource.StyleDeclaration,
  IncrementalSource.AdoptedStyleSheet,
]);

export class KeyframeScout {
  readonly keyframes = new KeyframeList<Keyframe>();
  #replayer: Replayer | null = null;
  #scrolls: HeldScrolls | null = null;
  #host: HTMLElement;
  #segments: Segment[] = [];
  /** How far each segment has keyframes: its last event covered (epoch ms), by its Meta. */
  #built = new Map<RecordedEvent, number>();
  /** Index in `events` of the first event the hidden replayer has not applied; -1: none known. */
  #next = -1;
  #lastApplied: RecordedEvent | null = null;
  /** The Meta the hidden replayer's document was built from. */
  #base: RecordedEvent | null = null;
  #size = 50;
  #work = 0;
  #cancelTask = () => {};
  #usable = true;

  /**
   * `events` is the recording's sorted stream, read as it grows; `focus()` is where the viewer is
   * (epoch ms); while `held()` (the player plays or seeks) the scout waits, so the player keeps
   * the main thread; `onDone` hears when it has caught up.
   */
  constructor(
    private readonly events: readonly RecordedEvent[],
    private readonly focus: () => number,
    private readonly held: () => boolean,
    private readonly onDone: () => void,
  ) {
    this.#host = document.createElement("div");
    this.#host.className = "replay-scout";
    this.#host.setAttribute("aria-hidden", "true");
    this.#host.inert = true;
    document.body.append(this.#host);
    this.#segments = segments(events);
    this.#schedule();
  }

  /** Every event is applied and has its keyframe, or keyframes cannot be made for this stream. */
  get done(): boolean {
    return !this.#usable || (this.#replayer !== null && this.#nextSegment() === null);
  }

  /** New events were merged into the stream (`added` sorted). */
  eventsAdded(added: readonly RecordedEvent[]) {
    if (!this.#usable || added.length === 0) return;
    if (added.some(unclonable)) {
      this.destroy();
      return this.onDone();
    }
    this.#segments = segments(this.events);
    this.#forgetStale(added);
    if (this.#replayer) this.#place(added);
    this.#schedule();
  }

  destroy() {
    if (!this.#usable) return;
    this.#usable = false;
    this.#cancelTask();
    this.#replayer?.destroy();
    this.#replayer = null;
    this.#host.remove();
    this.keyframes.clear();
  }

  #nextSegment(): Segment | null {
    const built = (meta: RecordedEvent) => this.#built.get(meta) ?? -Infinity;
    return nextSegment(this.#segments, this.events, this.focus(), built);
  }

  /** A keyframe at T from a Meta at B is stale once an event in [B, T] arrives; so is coverage. */
  #forgetStale(added: readonly RecordedEvent[]) {
    const stamps = added.map((event) => event.timestamp);
    this.keyframes.dropStale(stamps);
    for (const [meta, built] of this.#built) {
      const first = stamps.find((stamp) => stamp >= meta.timestamp);
      if (first !== undefined && first <= built) this.#built.set(meta, first - 1);
    }
  }

  /**
   * Puts `added` into the hidden replayer's stream unapplied (the plan decides when they play)
   * and keeps `#next` on the same event; events it missed in its current document start it over.
   */
  #place(added: readonly RecordedEvent[]) {
    insertUnapplied(this.#replayer!, [...added]);
    const last = this.#lastApplied, base = this.#base;
    if (this.#next < 0 || !last || !base) return;
    const missed = (e: RecordedEvent) =>
      e.timestamp >= base.timestamp && e.timestamp <= last.timestamp;
    // On equal timestamps the merge puts the new events after the old ones.
    if (added.some(missed)) this.#next = -1;
    else this.#next += added.filter((e) => e.timestamp < last.timestamp).length;
  }

  #schedule() {
    this.#cancelTask();
    if (this.#usable && !this.done) this.#cancelTask = later(this.#step);
  }

  #step = () => {
    if (!this.#usable) return;
    if (this.held()) return this.#schedule();
    if (!this.#replayer && !this.#start()) return;
    const segment = this.#nextSegment();
    if (!segment) return this.onDone();
    // Carry on where the hidden replayer stands in this segment, or replay it from its Meta.
    const inside = segment.start <= this.#next && this.#next < segment.end;
    const from = inside ? this.#next : segment.start;
    const end = stepEnd(this.events, from, this.#size);
    const last = this.events[end];
    const started = performance.now();
    this.#scrolls!.around(() =>
      this.#replayer!.pause(last.timestamp + 1 - this.events[0].timestamp)
    );
    const took = performance.now() - started;
    this.#next = end + 1;
    this.#lastApplied = last;
    this.#size = nextStepSize(this.#size, took);
    this.#work += took;
    this.#cover(from, end);
    if (this.done) this.onDone();
    else this.#schedule();
  };

  /** Records events `from`..`end` as applied, and takes a keyframe where one is due. */
  #cover(from: number, end: number) {
    const last = this.events[end];
    let wasBuilt = -Infinity;
    let segmentEnd = this.events.length;
    for (const segment of this.#segments) {
      if (segment.end <= from || segment.start > end) continue;
      const meta = this.events[segment.start];
      const built = this.#built.get(meta) ?? -Infinity;
      const covered = this.events[Math.min(end, segment.end - 1)].timestamp;
      this.#built.set(meta, Math.max(built, covered));
      // The last segment touched is the one the replayer's document now shows.
      this.#base = meta;
      wasBuilt = built;
      segmentEnd = segment.end;
    }
    const due = keyframeDue(last.type, this.#work) || end === segmentEnd - 1;
    if (!due || last.timestamp <= wasBuilt || !this.#base) return;
    const keyframe = captureKeyframe(this.#replayer!, this.#base.timestamp);
    if (keyframe) this.keyframes.add(keyframe);
    this.#work = 0;
  }

  #start(): boolean {
    if (this.events.some(unclonable)) {
      this.destroy();
      this.onDone();
      return false;
    }
    const replayer = new Replayer([...this.events], {
      root: this.#host,
      skipInactive: false,
      showWarning: false,
      mouseTail: false,
      triggerFocus: false,
      // Steps are short: applying their few events to the DOM directly is cheaper than rrweb
      // building a virtual copy of the whole document and diffing it back on every step.
      useVirtualDom: false,
    });
    replayer.disableInteract();
    keepBlankAddress(replayer.iframe);
    if (!hasKeyframeSupport(replayer)) {
      replayer.destroy();
      this.destroy();
      this.onDone();
      return false;
    }
    this.#replayer = replayer;
    playExactly(replayer);
    this.#scrolls = new HeldScrolls(replayer);
    this.#next = -1;
    return true;
  }
}

function unclonable(event: RecordedEvent): boolean {
  return event.type === EventType.IncrementalSnapshot &&
    UNCLONABLE_SOURCES.has((event.data as { source?: number })?.source!);
}

// Background-priority tasks where the browser has them (they yield to input and rendering);
// idle callbacks starve on a busy page, so a timer is the fallback.
const tasks = globalThis as unknown as {
  scheduler?: {
    postTask(
      callback: () => void,
      options: { priority: string; signal: AbortSignal },
    ): Promise<void>;
  };
};

function later(callback: () => void): () => void {
  if (tasks.scheduler?.postTask) {
    const controller = new AbortController();
    tasks.scheduler.postTask(callback, { priority: "background", signal: controller.signal })
      .catch(() => {});
    return () => controller.abort();
  }
  const timer = setTimeout(callback, 0);
  return () => clearTimeout(timer);
}
